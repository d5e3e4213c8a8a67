import { Link, useLoaderData } from "brisk";
import logo from "./brisk-logo.svg";
import type { homeLoader } from "./Home.server.ts";

export function Home() {
  const { examples } = useLoaderData<typeof homeLoader>();
  return (
    <main>
      <title>Brisk</title>
      {/* An imported image: the same hashed /assets/ URL on the server and in the browser. */}
      <img className="logo" src={logo} alt="" width={40} height={40} />
      <h1>Brisk</h1>
      <p className="lead">
        A React application served from Bun: an Elysia server streams React 19, wouter routes run on both sides, and
        every outcome has a real page with a real HTTP status.
      </p>
      <p className="prerendered">
        This page, the code-split route and the not-found page are prerendered: rendered once by the build (or as
        <code>bun run start</code> starts), then sent from memory with a fresh CSP nonce and request id on every answer.
      </p>
      <h2>Examples</h2>
      <ul className="examples">
        {examples.map((e) => (
          <li key={e.href}>
            {/* A page is loaded ahead on hover or focus: the click shows it without waiting for the network. */}
            {e.notAPage ? (
              <a href={e.href}>{e.title}</a>
            ) : (
              <Link href={e.href} prefetch="intent">
                {e.title}
              </Link>
            )}{" "}
            <span className="status">{e.status}</span>
            <br />
            <span className="shows">{e.shows}</span>
          </li>
        ))}
      </ul>
    </main>
  );
}
