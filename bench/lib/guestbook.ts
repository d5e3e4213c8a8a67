// guestbook.ts: the write measurement's form post, and proof that the servers stored what they answered 303 for.
//
// Each server keeps the bench app's guestbook in SQLite under a DATA_DIR of its own (store.sqlite in WAL mode,
// bench/app/guestbook/store.server.ts), read here read-only while it runs. wrk counts answers below 400 and
// cannot tell a 303 from a 200, so checkSubmission first makes sure one post gets 303 with its Location and
// stores one row, and rowsMismatch then holds the measured answers against the rows the table gained meanwhile.
import { Database } from "bun:sqlite";
import { existsSync } from "node:fs";
import { ENTRIES_TABLE, storeFile } from "../app/guestbook/store.server.ts";
import type { Measurement } from "./throughput.ts";

export const GUESTBOOK_PATH = "/guestbook";
export const FORM_TYPE = "application/x-www-form-urlencoded";
/** A valid entry as a browser encodes the form: a name and a sentence, with `+`, `%21` and `%2C`. */
export const GUESTBOOK_FORM = new URLSearchParams({
  name: "Ada Lovelace",
  message: "Hello from the bench! A short note in the guestbook, as a visitor would leave it.",
}).toString();

export function countRows(dataDir: string): number {
  // Brisk's bench app opens its store on first use: before the first post there is no file, and no row.
  if (!existsSync(storeFile(dataDir))) return 0;
  const db = new Database(storeFile(dataDir), { readonly: true });
  try {
    return db.query<{ n: number }, []>(`SELECT count(*) AS n FROM ${ENTRIES_TABLE}`).get()!.n;
  } finally {
    db.close();
  }
}

/**
 * One post as wrk will send it, with an Origin naming the server (as a browser sends on every form
 * post): throws unless the answer is 303 to the guestbook and exactly one row was added.
 */
export async function checkSubmission(origin: string, dataDir: string): Promise<void> {
  const before = countRows(dataDir);
  const res = await fetch(origin + GUESTBOOK_PATH, {
    method: "POST",
    body: GUESTBOOK_FORM,
    headers: { "content-type": FORM_TYPE, origin },
    redirect: "manual",
  });
  const text = await res.text();
  const added = countRows(dataDir) - before;
  const location = res.headers.get("location");
  if (res.status !== 303 || location !== GUESTBOOK_PATH || added !== 1) {
    throw new Error(
      `POST ${GUESTBOOK_PATH} on ${origin}: expected 303 to ${GUESTBOOK_PATH} and one new row, got ${res.status} to ${location} and ${added} rows\n${text.slice(0, 500)}`,
    );
  }
}

export interface WriteMeasurement extends Measurement {
  /** Rows the server's table gained from the first measured slice until the requests in flight had landed. */
  rows: number;
}

/**
 * Undefined when the rows match the answers, else why not. Every answer below 400 must have stored its
 * row; a few more rows are fine, at most one per connection and slice: requests wrk had sent when a slice
 * ended are stored but not counted.
 */
export function rowsMismatch(m: WriteMeasurement, connections: number, slices: number): string | undefined {
  const answered = m.requests - m.non2xx;
  if (m.rows < answered) return `${m.server}: ${answered} answers below 400 but only ${m.rows} rows stored`;
  const unanswered = connections * slices;
  if (m.rows > answered + unanswered)
    return `${m.server}: ${m.rows} rows stored for ${answered} answers (at most ${unanswered} more were in flight)`;
  return undefined;
}
