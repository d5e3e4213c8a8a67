// document.tsx: the framework's parts of the app's <html> shell: <Links /> in the head, <PageContent /> in the body.
// They carry the plumbing an app should not have to know: the CSP nonce, stylesheet order, preloads,
// the page's error boundary and the scripts of streamed values.
import { isServerRender, useAppRuntime } from "./app-context.ts";
import { deferredScripts } from "./deferred.tsx";
import { useNavState } from "./navigation.ts";
import { NavigationNotice } from "./NavigationNotice.tsx";
import { pageElement } from "./Page.tsx";
import { PageBoundary } from "./PageBoundary.tsx";
import { INLINE_STYLE_PRECEDENCE, STYLESHEET_PRECEDENCE } from "./route-loading.ts";

/** The page's stylesheets and script preloads. */
export function Links() {
  const {
    navigation: { nonce },
    inlineStyles,
  } = useAppRuntime();
  const { css, js, inline = [] } = useNavState().page.payload.assets;
  return (
    <>
      {inline.map((href) => (
        <style key={href} href={href} precedence={INLINE_STYLE_PRECEDENCE} nonce={nonce}>
          {inlineStyles?.get(href) ?? ""}
        </style>
      ))}
      {css.map((href) => (
        <link key={href} rel="stylesheet" href={href} precedence={STYLESHEET_PRECEDENCE} />
      ))}
      {js.map((href) => (
        <link key={href} rel="modulepreload" href={href} nonce={nonce} />
      ))}
    </>
  );
}

/** The current page (its route, an outcome page or the error page) inside its error boundary. */
export function PageContent() {
  const runtime = useAppRuntime();
  const state = useNavState();
  const { nonce } = runtime.navigation;
  const server = isServerRender(runtime);
  const page = pageElement(runtime, state);
  return (
    <>
      {server ? null : <NavigationNotice />}
      {/* Cleared, not re-mounted, when the page moves on: a layout that stays keeps its state. */}
      {server ? page : <PageBoundary reset={`${state.path}?${state.search}`}>{page}</PageBoundary>}
      {deferredScripts(runtime.settlements, nonce)}
    </>
  );
}
