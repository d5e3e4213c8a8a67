// Document.tsx: the <html> shell around every page, rendered by the server and hydrated whole.
import type { DeferredSettlement } from "../brisk/runtime/page.ts";
import { DeferredScripts } from "../brisk/runtime/deferred.tsx";
import { useNavigation, useNavState } from "../brisk/runtime/navigation.ts";
import { PageBoundary } from "../brisk/runtime/PageBoundary.tsx";
import { NavigationNotice } from "../brisk/runtime/NavigationNotice.tsx";
import { Page } from "../brisk/runtime/Page.tsx";

export interface DocumentProps {
  /** Streamed values of the page the server rendered; they keep their place when the client moves on. */
  settlements: ReadonlyArray<readonly [string, Promise<DeferredSettlement>]>;
}

export function Document({ settlements }: DocumentProps) {
  const { nonce } = useNavigation();
  const { path, search, page } = useNavState();
  const { css, js } = page.payload.assets;
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        {/* Bun's chunk loader reads the nonce here for the modulepreload links it adds. */}
        {nonce ? <meta property="csp-nonce" nonce={nonce} /> : null}
        {/* No favicon yet: an empty one spares every visit a request that can only 404. */}
        <link rel="icon" href="data:," />
        {css.map((href) => (
          <link key={href} rel="stylesheet" href={href} precedence="brisk" />
        ))}
        {js.map((href) => (
          <link key={href} rel="modulepreload" href={href} nonce={nonce} />
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
