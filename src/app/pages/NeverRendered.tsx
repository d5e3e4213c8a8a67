/** The component of a route whose loader always ends it (outcome-loaders.server.ts); it never renders. */
export function NeverRendered() {
  return null;
}
