// section.server.ts: the layout loader of the two-level nested page: a level with data of its own, so that both
// levels' loaders run on every request.
export function sectionLoader() {
  return { name: "Shop" };
}
