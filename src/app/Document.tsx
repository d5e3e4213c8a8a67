// Document.tsx: the <html> shell around every page, rendered by the server and hydrated whole.
import type { DeferredSettlement } from "./runtime/page.ts";
import { DeferredScripts } from "./runtime/deferred.tsx";
import { useNavState } from "./runtime/navigation.ts";
import { PageBoundary } from "./runtime/PageBoundary.tsx";
import { NavigationNotice } from "./runtime/NavigationNotice.tsx";
import { Page } from "./Page.tsx";

export interface DocumentProps {
  /** Streamed values of the page the server rendered; they keep their place when the client moves on. */
  settlements: ReadonlyArray<readonly [string, Promise<DeferredSettlement>]>;
  nonce?: string;
}

export function Document({ settlements, nonce }: DocumentProps) {
  const { path, search, page } = useNavState();
  const { css, js } = page.payload.assets;
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        {/* No favicon yet: an empty one spares every visit a request that can only 404. */}
        <link rel="icon" href="data:," />
        {css.map((href) => (
          <link key={href} rel="stylesheet" href={href} precedence="brisk" />
        ))}
        {js.map((href) => (
          <link key={href} rel="modulepreload" href={href} />
        ))}
      </head>
      <body>
        <NavigationNotice />
        <PageBoundary key={`${path}?${search}`}>
          <Page />
        </PageBoundary>
        <DeferredScripts settlements={settlements} nonce={nonce} />
      </body>
    </html>
  );
}
