// digest.ts: the short id that joins an error page, its log line and its Sentry events.

const ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz";
const DIGESTS = new WeakMap<object, string>();

/** 10 base-36 characters from the CSPRNG: ~52 bits, unique per occurrence in practice. */
export function newDigest(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(10));
  let out = "";
  for (const b of bytes) out += ALPHABET[b % 36];
  return out;
}

/** The digest an error was already given, so that one failure seen twice is reported once. */
export function digestOf(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const own = (error as { digest?: unknown }).digest;
  return typeof own === "string" ? own : DIGESTS.get(error);
}

export function rememberDigest(error: unknown, digest: string): void {
  if (typeof error === "object" && error !== null) DIGESTS.set(error, digest);
}
