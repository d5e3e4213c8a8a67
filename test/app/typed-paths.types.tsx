// typed-paths.types.tsx (type test, checked by `bun run typecheck`, never run): the examples' route table is
// registered (.brisk/routes.d.ts), so every API that takes a path takes only the table's.
import { Form, href, Link, redirect, returnTo, useFetcher, useLocation } from "brisk";

export function Fine() {
  const [, navigate] = useLocation();
  const fetcher = useFetcher();
  return (
    <>
      <Link to="/examples/nested/items/1">item</Link>
      <Link href={href("/examples/nested/items/:id", { id: "1" })}>item</Link>
      <Link to="/examples/search?q=x">search</Link>
      <Link to="/examples/guestbook#sign">sign</Link>
      <Link to="?q=x">this page</Link>
      <Link to="https://example.com/">elsewhere</Link>
      <Form action="/examples/guestbook" />
      <fetcher.Form action="/examples/guestbook/1/like" />
      <button type="button" onClick={() => navigate("/examples/account/notes")} />
      <button type="button" onClick={() => void fetcher.load("/examples/nested/items/2")} />
    </>
  );
}

export function Misspelt() {
  const [, navigate] = useLocation();
  const fetcher = useFetcher();
  return (
    <>
      {/* @ts-expect-error: no route answers /examples/nestd */}
      <Link to="/examples/nestd">nested</Link>
      {/* @ts-expect-error: a param is one segment */}
      <Link to="/examples/nested/items/1/2">item</Link>
      {/* @ts-expect-error: nor does it answer /examples/guestboo */}
      <Form action="/examples/guestboo" />
      {/* @ts-expect-error: a fetcher's action too */}
      <fetcher.Form action="/examples/guestbook/1/lik" />
      {/* @ts-expect-error: and navigate() */}
      <button type="button" onClick={() => navigate("/examples/acount")} />
      {/* @ts-expect-error: and a fetcher's load */}
      <button type="button" onClick={() => void fetcher.load("/examples/nested/item/2")} />
    </>
  );
}

export function loaders(next: string | null) {
  return [
    () => redirect("/examples/account"),
    () => redirect(returnTo(next, "/examples/account")),
    () => redirect(href("/examples/guestbook/:id", { id: "1" }), { status: 303 }),
    () => redirect("https://example.com/pay", { external: true }),
    // @ts-expect-error: no route answers it
    () => redirect("/examples/acount"),
    // @ts-expect-error: a string from the request is no path of the table: returnTo() it
    () => redirect(next ?? "/"),
    // @ts-expect-error: href() takes the pattern's params, all of them
    () => href("/examples/nested/items/:id", {}),
  ];
}
