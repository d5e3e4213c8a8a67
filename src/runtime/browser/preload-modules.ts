// preload-modules.ts: a page's chunks requested side by side before its code is imported. A first visit has
// them as modulepreload links in the HTML; a navigation gets them here, from the page data, so a code-split
// page's chunk and the chunks it imports arrive together rather than one import depth per round trip. It is
// part of the navigation chunk, so it imports nothing the entry holds (react-dom's preloadModule would make
// react-dom a chunk shared by the two).

/** `nonce` is the document's: under its CSP a preload without it is refused. */
export function preloadModules(hrefs: readonly string[], nonce: string | undefined): void {
  for (const href of hrefs) {
    if (document.head.querySelector(`link[rel="modulepreload"][href="${CSS.escape(href)}"]`)) continue;
    const link = document.createElement("link");
    link.rel = "modulepreload";
    link.href = href;
    if (nonce) link.nonce = nonce;
    document.head.append(link);
  }
}
