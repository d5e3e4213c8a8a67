// static-server.ts: the static ceiling: Bun.serve whose fetch handler answers one fixed HTML string (Brisk's
// own `/`, fetched once by the bench), the JavaScript path rather than Bun's native static routes. The
// build's files are served beside it, so Chromium can load the page as it loads Brisk's.
import { serveAsset } from "./lib/static-assets.ts";

const clientDir = Bun.env.BENCH_CLIENT_DIR!;
const html = await Bun.file(Bun.env.BENCH_STATIC_HTML!).text();
const HTML_HEADERS = { "content-type": "text/html; charset=utf-8" };

const server = Bun.serve({
  hostname: Bun.env.HOST ?? "127.0.0.1",
  port: Number(Bun.env.PORT ?? 0),
  fetch(request) {
    const path = new URL(request.url).pathname;
    if (path === "/healthz") return new Response("ok\n");
    if (path.startsWith("/assets/"))
      return serveAsset(clientDir, path.slice("/assets/".length), request.headers.get("accept-encoding") ?? "");
    return new Response(html, { headers: HTML_HEADERS });
  },
});
console.error(`static ceiling listening on ${server.url}`);
