// client-bundle.ts: development only: where Bun's development server serves the client entry it bundles from
// src/brisk/dev/client.html, with hot-module replacement and React Fast Refresh.

/** The dev server serves client.html here; nothing but the dev server itself reads it. */
export const CLIENT_SHELL_PATH = "/__dev/client";

export type ClientBundle =
  | { ok: true; url: string }
  /** The client does not build: Bun's own page, which shows the errors and reloads itself once they are fixed. */
  | { ok: false; errorPage: Response };

/**
 * The bundle's URL now. It changes with every edit to the browser's code, and an older URL still serves the
 * older code, so each page asks again: Bun answers from memory unless an edit is being bundled, which the
 * page then waits for.
 */
export async function clientBundle(server: URL): Promise<ClientBundle> {
  const response = await fetch(new URL(CLIENT_SHELL_PATH, server));
  const html = await response.text();
  const url = /<script\b[^>]*\bsrc="(\/[^"]+)"/.exec(html)?.[1];
  if (response.ok && url) return { ok: true, url };
  const headers = { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" };
  return { ok: false, errorPage: new Response(html, { status: response.ok ? 500 : response.status, headers }) };
}

/**
 * The CSP source that lets Bun's error overlay (shown over a page whose code does not build) style itself:
 * it sets one fixed style attribute, which the app's `style-src 'self'` refuses. It is read from the
 * bundle's runtime, which changes with Bun's version only; undefined if this Bun spells it otherwise.
 */
export async function overlayStyleSource(server: URL, bundleUrl: string): Promise<string | undefined> {
  const code = await (await fetch(new URL(bundleUrl, server))).text();
  const style = /"bun-hmr",\{style:"([^"]+)"\}/.exec(code)?.[1];
  return style && `'sha256-${new Bun.CryptoHasher("sha256").update(style).digest("base64")}'`;
}
