// Frame.tsx: the frame of every page but the home page: its title, and the way back.
import type { ReactNode } from "react";
import { Link } from "brisk";

export function Frame({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main>
      <title>{`${title} · Brisk bench`}</title>
      <p>
        <Link href="/">← Home</Link>
      </p>
      <h1>{title}</h1>
      {children}
    </main>
  );
}
