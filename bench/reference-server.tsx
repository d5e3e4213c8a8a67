// reference-server.tsx: the ceiling: raw Bun.serve + renderToReadableStream of the bench app's pages (bench/app),
// no framework. Same components and loader data as Brisk, in a shell like the app's Document, with the same boot
// data script and client entry, so the HTML is the same size; only routing, outcomes, logging, Sentry are missing.
// `/` is rendered for every request here (Brisk prerenders it), `/items` on both sides; `/cached/items` is the
// items page rendered for every request, against Brisk's answer from its render cache, and `/shell/items` the page
// Brisk prerenders as a shell, whole. `/session/items` is the items
// page behind a signed session cookie, checked by hand: the cookie header parsed, its HMAC-SHA256 computed with a
// keyed Bun.CryptoHasher (Web Crypto's takes ~22 µs a call) from the bench's COOKIE_SECRET and compared in
// constant time (401 without a valid one).
// /assets/ are the build's files (for the Chromium loads; its pages run Brisk's entry, which finds no
// Brisk boot state there and does not hydrate).
// POST /monitoring is the naive tunnel: one fetch forward, no checks at all.
// POST /guestbook is the form post done by hand: the urlencoded body parsed, the app's own validation
// (validateEntry: name 1–80, message 1–500), the app's store inserting through Bun.SQL (SQLite in WAL mode
// under DATA_DIR, the same schema and statement), then 303 to the list. No cross-site check, no body limit,
// no request id or log line: those are Brisk's own work.
import { timingSafeEqual } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { ReactNode } from "react";
import { renderToReadableStream } from "react-dom/server";
import { Router } from "wouter";
import { LevelContext } from "../src/runtime/loader-data.tsx";
import { AppContext, type AppRuntime } from "../src/runtime/app-context.ts";
import { staticNavigation, type PageView } from "../src/runtime/navigation.ts";
import { scriptString } from "../src/runtime/script-json.ts";
import { NotFound } from "./app/fallbacks.tsx";
import { validateEntry } from "./app/guestbook/entry.ts";
import { openGuestbook } from "./app/guestbook/store.server.ts";
import { Home } from "./app/pages/Home.tsx";
import { homeLoader } from "./app/pages/home.server.ts";
import { Items, SessionItems, ShellItems } from "./app/pages/Items.tsx";
import { itemsLoader } from "./app/pages/items.server.ts";
import { SESSION_COOKIE } from "./app/pages/session.server.ts";
import { shellItemsLoader } from "./app/pages/shell-items.server.ts";
import { Stream } from "./app/pages/Stream.tsx";
import { streamLoader } from "./app/pages/stream.server.ts";
import { serveAsset } from "./lib/static-assets.ts";

const clientDir = Bun.env.BENCH_CLIENT_DIR!;
const ingestUrl = Bun.env.BENCH_INGEST_URL!;
const manifest = JSON.parse(readFileSync(join(clientDir, "manifest.json"), "utf8")) as {
  entry: string;
  css: string[];
  preload: string[];
};
const asset = (file: string) => `/assets/${file}`;
// DATA_DIR is set by the bench: a folder of this server's own, so its table starts empty.
const guestbook = await openGuestbook(Bun.env.DATA_DIR ?? "./data");
const sessionKey = new Bun.CryptoHasher("sha256", Bun.env.COOKIE_SECRET ?? "");

/** The session cookie's value when its signature (`value.<base64url HMAC of "name=value">`) verifies. */
function sessionUser(request: Request): string | undefined {
  const signed = new Bun.CookieMap(request.headers.get("cookie") ?? "").get(SESSION_COOKIE);
  const dot = signed?.lastIndexOf(".") ?? -1;
  if (!signed || dot < 0) return undefined;
  const value = signed.slice(0, dot);
  const given = Buffer.from(signed.slice(dot + 1), "base64url");
  const expected = sessionKey.copy().update(`${SESSION_COOKIE}=${value}`).digest();
  return given.length === expected.length && timingSafeEqual(given, expected) ? value : undefined;
}

function Shell({ path, data, children }: { path: string; data: unknown; children: ReactNode }) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        {manifest.css.map((f) => (
          <link key={f} rel="stylesheet" href={asset(f)} precedence="ref" />
        ))}
        <link rel="icon" href="data:," />
        {manifest.preload.map((f) => (
          <link key={f} rel="modulepreload" href={asset(f)} />
        ))}
      </head>
      <body>
        {/* wouter's Link needs a router on the server; ssrPath is the cheapest one. */}
        <Router ssrPath={path}>
          {/* Brisk's Link asks for the navigation (to prefetch on the client): one that never moves, as Brisk's server
              renders. It reads nothing else of Brisk's context, so nothing else is made. */}
          <AppContext
            value={
              {
                navigation: staticNavigation(
                  { path, search: "", page: { data } as unknown as PageView },
                  { mode: "production" },
                  "127.0.0.1",
                ),
              } as AppRuntime
            }
          >
            <LevelContext value={{ depth: 0, data }}>{children}</LevelContext>
          </AppContext>
        </Router>
      </body>
    </html>
  );
}

export async function page(request: Request, path: string): Promise<Response> {
  let status = 200;
  let data: unknown = null;
  let boot: unknown = null;
  let body: ReactNode;
  if (path === "/") {
    data = boot = homeLoader();
    body = <Home />;
  } else if (path === "/items" || path === "/cached/items") {
    data = boot = itemsLoader();
    body = <Items />;
  } else if (path === "/shell/items") {
    data = boot = shellItemsLoader();
    body = <ShellItems />;
  } else if (path === "/session/items") {
    const user = sessionUser(request);
    if (user === undefined) return new Response(null, { status: 401 });
    data = boot = { user, ...itemsLoader() };
    body = <SessionItems />;
  } else if (path === "/stream") {
    const loaded = streamLoader({ signal: request.signal });
    data = loaded;
    boot = { requestedAt: loaded.requestedAt };
    body = <Stream />;
  } else {
    status = 404;
    body = (
      <>
        <meta name="robots" content="noindex" />
        <NotFound />
      </>
    );
  }
  const stream = await renderToReadableStream(
    <Shell path={path} data={data}>
      {body}
    </Shell>,
    {
      bootstrapModules: [asset(manifest.entry)],
      bootstrapScriptContent: `window.__DATA__=JSON.parse(${scriptString(JSON.stringify({ path, data: boot }))})`,
      signal: request.signal,
    },
  );
  return new Response(stream, { status, headers: { "content-type": "text/html; charset=utf-8" } });
}

async function signGuestbook(request: Request): Promise<Response> {
  if (!request.headers.get("content-type")?.startsWith("application/x-www-form-urlencoded"))
    return new Response(null, { status: 415 });
  const checked = validateEntry(await request.formData());
  if (!checked.ok) return Response.json(checked.errors, { status: 422 });
  await guestbook.add(checked.entry);
  return new Response(null, { status: 303, headers: { location: "/guestbook" } });
}

const server = Bun.serve({
  hostname: Bun.env.HOST ?? "127.0.0.1",
  port: Number(Bun.env.PORT ?? 0),
  async fetch(request) {
    const path = new URL(request.url).pathname;
    if (path === "/healthz") return new Response("ok\n");
    if (path === "/monitoring" && request.method === "POST") {
      return fetch(ingestUrl, {
        method: "POST",
        body: await request.arrayBuffer(),
        headers: { "content-type": "application/x-sentry-envelope" },
      });
    }
    if (path === "/guestbook" && request.method === "POST") return signGuestbook(request);
    // For the Chromium loads: the page's stylesheet and scripts, as a file server would send them.
    if (path.startsWith("/assets/"))
      return serveAsset(clientDir, path.slice("/assets/".length), request.headers.get("accept-encoding") ?? "");
    return page(request, path);
  },
});
console.error(`reference listening on ${server.url}`);
