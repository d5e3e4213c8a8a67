// Home.tsx: the prerendered home page: what the static ceiling serves as a fixed string, and what the
// visitor measurement, the client weight and the binary's cold start load.
import { Link, useLoaderData } from "brisk";
import logo from "../logo.svg";
import type { homeLoader } from "./home.server.ts";

export function Home() {
  const { pages } = useLoaderData<typeof homeLoader>();
  return (
    <main>
      <title>Brisk bench</title>
      {/* An imported image: the same hashed /assets/ URL on the server and in the browser. */}
      <img className="logo" src={logo} alt="" width={40} height={40} />
      <h1>Brisk bench</h1>
      <p>
        The pages <code>bun run bench</code> measures against a raw <code>Bun.serve</code> reference. This one is
        prerendered: rendered once, then sent from memory with a fresh CSP nonce and request id on every answer.
      </p>
      <ul>
        {pages.map((p) => (
          <li key={p.href}>
            <Link href={p.href}>{p.title}</Link> <span className="status">{p.status}</span>: {p.shows}
          </li>
        ))}
      </ul>
    </main>
  );
}
