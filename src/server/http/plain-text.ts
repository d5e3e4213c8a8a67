// plain-text.ts: a short plain-text answer that no cache keeps: refusals and failures outside the pages.

export function noStoreText(status: number, body: string, headers: Record<string, string> = {}): Response {
  return new Response(`${body}\n`, { status, headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store", ...headers } });
}
