// Section.tsx: the layout of the two-level nested page (`/section/items`): a nav of its own above the items page,
// which renders in its <Outlet /> with its own loader, as `/items` renders alone. Its <main> is the items page's.
import { Link, Outlet, useLoaderData } from "brisk";
import type { sectionLoader } from "./section.server.ts";

export function Section() {
  const { name } = useLoaderData<typeof sectionLoader>();
  return (
    <>
      <nav aria-label={name}>
        <Link href="/section/items">{name}</Link>
      </nav>
      <Outlet />
    </>
  );
}
