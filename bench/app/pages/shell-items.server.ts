// shell-items.server.ts: the partly prerendered items page's loader: what differs per request, its hole's one line.
export function shellItemsLoader() {
  return { requestedAt: new Date().toISOString() };
}
