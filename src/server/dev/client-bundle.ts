// client-bundle.ts: development only: the client entry as Bun's development server bundles it from
// src/server/dev/client.html, with hot-module replacement and React Fast Refresh.
import { DEV_PAGE_HEADERS } from "./dev-page.ts";

/** The dev server serves client.html here; nothing but the dev server itself reads it. */
export const CLIENT_SHELL_PATH = "/__dev/client";

export type ClientBundle =
  | { ok: true; url: string }
  /** The client does not build: Bun's own page, which shows the errors (serve it as `clientFailurePage`, and `watchForFix`). */
  | { ok: false; errorPage: Response };

export interface ClientBundles {
  /**
   * The bundle as it is now. Its URL changes with every edit to the browser's code, and an older URL still
   * serves the older code, so each page asks again: Bun answers from memory unless an edit is being
   * bundled, which the page then waits for.
   */
  current(): Promise<ClientBundle>;
  /**
   * What the pages' style-src must allow for Bun's error overlay (shown over a page whose code does not
   * build): it sets one fixed style attribute, which the app's `style-src 'self'` refuses. Known once a
   * bundle has built; empty if this Bun spells it otherwise.
   */
  styleSources(): readonly string[];
  /**
   * Asks Bun every quarter second until the client builds again, then calls `onFixed`: once, however many
   * pages got the error meanwhile. Bun's error page reloads itself when a build fixes it, but not after a fix
   * whose build ended before the page's socket subscribed (oven-sh/bun#42075): it would stay on the error.
   * Stops without a call if the dev server stops answering.
   */
  watchForFix(): void;
}

/** How often `watchForFix` asks Bun, while the client does not build. */
const FIX_POLL_MS = 250;

/** `server`: where this process listens, once it does. */
export function clientBundles(server: () => URL, { onFixed = () => {} }: { onFixed?: () => void } = {}): ClientBundles {
  const styleSources: string[] = [];
  let overlayRead = false;
  let watching = false;

  /** The overlay's style is in the bundle's runtime, which changes with Bun's version only: read once. */
  async function readOverlayStyle(url: string): Promise<void> {
    overlayRead = true;
    const code = await (await fetch(new URL(url, server()))).text();
    const style = /"bun-hmr",\{style:"([^"]+)"\}/.exec(code)?.[1];
    if (style) styleSources.push(`'sha256-${new Bun.CryptoHasher("sha256").update(style).digest("base64")}'`);
  }

  async function current(): Promise<ClientBundle> {
    const response = await fetch(new URL(CLIENT_SHELL_PATH, server()));
    const html = await response.text();
    const url = /<script\b[^>]*\bsrc="(\/[^"]+)"/.exec(html)?.[1];
    if (!response.ok || !url) {
      const init = { status: response.ok ? 500 : response.status, headers: DEV_PAGE_HEADERS };
      return { ok: false, errorPage: new Response(html, init) };
    }
    if (!overlayRead) await readOverlayStyle(url);
    return { ok: true, url };
  }

  async function untilFixed(): Promise<boolean> {
    try {
      while (!(await current()).ok) await Bun.sleep(FIX_POLL_MS);
      return true;
    } catch {
      return false;
    } finally {
      watching = false;
    }
  }

  return {
    current,
    styleSources: () => styleSources,
    watchForFix() {
      if (watching) return;
      watching = true;
      void untilFixed().then((fixed) => fixed && onFixed());
    },
  };
}
