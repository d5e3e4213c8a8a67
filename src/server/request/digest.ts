// digest.ts: the short id that joins an error page, its log line and its Sentry events.

const DIGESTS = new WeakMap<object, string>();

export { newDigest } from "../../runtime/new-digest.ts";

/** The digest an error was already given, so that one failure seen twice is reported once. */
export function digestOf(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const own = (error as { digest?: unknown }).digest;
  return typeof own === "string" ? own : DIGESTS.get(error);
}

export function rememberDigest(error: unknown, digest: string): void {
  if (typeof error === "object" && error !== null) DIGESTS.set(error, digest);
}
