// cookie-secret.ts: the secrets cookies are signed with: COOKIE_SECRET, or one generated on first start and kept under DATA_DIR.
//
// loadCookieSecrets({ cookieSecrets, dataDir }) resolves with
//   { secrets }            COOKIE_SECRET is set (parseConfig already checked each is at least 32 bytes);
//   { secrets, warning }   it is unset: the secret in DATA_DIR/cookie-secret, written there on first start
//                          (the folder made if missing, the file mode 0600) and read back on every later
//                          start, so a restart keeps visitors signed in. `warning` is one line for the log
//                          saying so, and that several replicas need COOKIE_SECRET set to one shared value.
// It rejects with a ConfigError (one line, printed like any bad variable) when the folder or file cannot
// be made or read, or the file holds less than 32 bytes. Two processes starting together on one DATA_DIR
// end up with the same secret: the file appears whole or not at all (written aside, then hard-linked).
import { link, mkdir, readFile, unlink, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { ConfigError, MIN_COOKIE_SECRET_BYTES, type Config } from "../config/config.ts";

export const COOKIE_SECRET_FILE = "cookie-secret";

export interface CookieSecrets {
  /** The first signs, all verify. */
  readonly secrets: readonly string[];
  /** Set when the secret is the one kept under DATA_DIR. */
  readonly warning?: string;
}

const REPLICAS = "several replicas need COOKIE_SECRET set to one shared value";

export async function loadCookieSecrets(config: Pick<Config, "cookieSecrets" | "dataDir">): Promise<CookieSecrets> {
  if (config.cookieSecrets.length > 0) return { secrets: config.cookieSecrets };
  const dir = resolve(config.dataDir);
  const path = join(dir, COOKIE_SECRET_FILE);
  const kept = await readSecret(path);
  if (kept !== undefined) {
    return {
      secrets: [kept],
      warning: `COOKIE_SECRET is unset: signing cookies with the secret kept in ${path}; ${REPLICAS}`,
    };
  }
  const secret = await createSecret(dir, path);
  return {
    secrets: [secret],
    warning: `COOKIE_SECRET is unset: generated a cookie secret and kept it in ${path} (mode 0600), so a restart keeps signed cookies valid; ${REPLICAS}`,
  };
}

/** The kept secret, or undefined when there is no file yet. */
async function readSecret(path: string): Promise<string | undefined> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if (errorCode(error) === "ENOENT") return undefined;
    throw unusable(`cannot read ${path} (${errorCode(error)})`);
  }
  const secret = text.trim();
  if (Buffer.byteLength(secret) < MIN_COOKIE_SECRET_BYTES) {
    throw unusable(
      `${path} holds a cookie secret shorter than ${MIN_COOKIE_SECRET_BYTES} bytes; delete it to make a new one`,
    );
  }
  return secret;
}

async function createSecret(dir: string, path: string): Promise<string> {
  const secret = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url");
  const aside = join(dir, `.${COOKIE_SECRET_FILE}.${process.pid}.${crypto.randomUUID()}`);
  try {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    await writeFile(aside, `${secret}\n`, { mode: 0o600, flag: "wx" });
    await link(aside, path);
    return secret;
  } catch (error) {
    // Another process starting on the same DATA_DIR linked its secret first: that one is everyone's.
    if (errorCode(error) === "EEXIST") {
      const theirs = await readSecret(path);
      if (theirs !== undefined) return theirs;
    }
    throw unusable(`cannot keep a cookie secret in ${path} (${errorCode(error)})`);
  } finally {
    await unlink(aside).catch(() => {});
  }
}

function unusable(problem: string): ConfigError {
  return new ConfigError("DATA_DIR", `${problem}; make DATA_DIR a writable folder or set COOKIE_SECRET`);
}

function errorCode(error: unknown): string {
  return (error as NodeJS.ErrnoException | undefined)?.code ?? String(error);
}
