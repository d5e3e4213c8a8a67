// Stalled uploads (issue 23, R2) on a real socket: a few clients that send a POST's headers and never its body,
// reconnecting whenever they are closed, must not shut form actions, API writes or the tunnel off for other
// visitors; a body that does not arrive in time is a 408 that frees what it held.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { BODY_READS_AT_ONCE } from "../../src/server/writes/body-reads.ts";
import { CLIENT_SHARE } from "../../src/server/writes/request-body.ts";
import { startFakeIngest, type FakeIngest } from "../support/fake-ingest.ts";
import { listenApp, type Listening } from "../support/app.ts";
import { stallUploads } from "../support/stalled-uploads.ts";

let ingest: FakeIngest;
beforeAll(async () => {
  ingest = await startFakeIngest();
});
afterAll(() => ingest.stop());

const FORM = { "content-type": "application/x-www-form-urlencoded" };
const JSON_TYPE = { "content-type": "application/json" };
const ENVELOPE = { "content-type": "text/plain;charset=UTF-8" };

function envelope(dsn: string): string {
  return `${JSON.stringify({ event_id: crypto.randomUUID().replaceAll("-", ""), dsn })}\n{"type":"event"}\n{}`;
}

/** The three writes a visitor makes, each from 127.0.0.1: the statuses they got. */
async function probe(origin: string, dsn: string): Promise<number[]> {
  const same = { origin };
  const answers = await Promise.all([
    fetch(`${origin}/form`, { method: "POST", headers: { ...FORM, ...same }, body: "text=probe", redirect: "manual" }),
    fetch(`${origin}/api/notes`, { method: "POST", headers: { ...JSON_TYPE, ...same }, body: JSON.stringify({ text: "probe" }) }),
    fetch(`${origin}/monitoring`, { method: "POST", headers: { ...ENVELOPE, ...same }, body: envelope(dsn) }),
  ]);
  await Promise.all(answers.map((r) => r.arrayBuffer()));
  return answers.map((r) => r.status);
}

describe("stalled uploads", () => {
  let t: Listening;
  beforeAll(async () => {
    // A short deadline, so that the stalled posts the server took are closed and opened again during the test.
    t = await listenApp({ SENTRY_DSN: ingest.dsn(), BODY_TIMEOUT_MS: "1500" });
  });
  afterAll(() => t.stop());

  test("three clients stalling 288 uploads, reconnecting, for 6 s: every write of another visitor still succeeds", async () => {
    const port = Number(new URL(t.origin).port);
    const from = ["127.0.0.2", "127.0.0.3", "127.0.0.4"];
    // Each client alone holds more uploads than there are slots, for the pages' and API's pool and the tunnel's.
    const connections = BODY_READS_AT_ONCE / 2;
    const attacks = [
      stallUploads({ port, from, connections, path: "/form", headers: FORM }),
      stallUploads({ port, from, connections, path: "/api/notes", headers: JSON_TYPE }),
      stallUploads({ port, from, connections, path: "/monitoring", headers: ENVELOPE }),
    ];
    await Promise.all(attacks.map((a) => a.ready));
    const until = performance.now() + 6_000;
    const statuses: number[][] = [];
    while (performance.now() < until) {
      statuses.push(await probe(t.origin, ingest.dsn()));
      await Bun.sleep(200);
    }
    const ended = await Promise.all(attacks.map((a) => a.stop()));
    expect(statuses.filter((s) => s.join() !== "303,201,200")).toEqual([]);
    expect(statuses.length).toBeGreaterThan(20);
    // The attack did reach the server: those past each client's share were refused, and the posts it took
    // were cut at the deadline and opened again. Actions and API routes share one pool: which of their
    // stalled posts took each client's share is a matter of arrival.
    const [form, api, tunnel] = ended.map((e) => ({ reopened: e.opened > from.length * connections, cut: e.answers.has("408"), refused: e.answers.has("429") }));
    const writes = { reopened: form!.reopened || api!.reopened, cut: form!.cut || api!.cut, refused: form!.refused && api!.refused };
    expect({ writes, tunnel }).toEqual({ writes: { reopened: true, cut: true, refused: true }, tunnel: { reopened: true, cut: true, refused: true } });
  });
});

/**
 * A post whose body trickles in a byte every `everyMs` (so the connection is never idle) and never ends;
 * resolves with the status it got (NaN: none within 5 s), how long that took, and whether the server closed
 * the connection right after.
 */
async function tricklingPost(port: number, path: string, headers: Record<string, string>, everyMs = 50) {
  const head = `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Length: 100000\r\n${Object.entries(headers)
    .map(([n, v]) => `${n}: ${v}\r\n`)
    .join("")}\r\n`;
  let received = "";
  const status = () => Number(/^HTTP\/1\.1 (\d{3})/.exec(received)?.[1]);
  const { promise: answered, resolve: answer } = Promise.withResolvers<void>();
  const { promise: closed, resolve: close } = Promise.withResolvers<boolean>();
  const socket = await Bun.connect({
    hostname: "127.0.0.1",
    port,
    socket: {
      data(_, chunk) {
        received += new TextDecoder().decode(chunk);
        if (status()) answer();
      },
      close: () => close(true),
      error: () => close(true),
    },
  });
  socket.write(head);
  const trickle = setInterval(() => socket.write("a"), everyMs);
  const started = performance.now();
  await Promise.race([answered, closed, Bun.sleep(5_000)]);
  const ms = performance.now() - started;
  const ended = await Promise.race([closed, Bun.sleep(300).then(() => false)]);
  clearInterval(trickle);
  socket.end();
  return { status: status(), ms, closed: ended };
}

describe("BODY_TIMEOUT_MS", () => {
  let t: Listening;
  let port: number;
  beforeAll(async () => {
    t = await listenApp({ SENTRY_DSN: ingest.dsn(), BODY_TIMEOUT_MS: "400" });
    port = Number(new URL(t.origin).port);
  });
  afterAll(() => t.stop());

  test("a body still arriving at the deadline is a 408 and the connection is closed: actions, API routes and the tunnel", async () => {
    const [page, api, tunnel] = await Promise.all([
      tricklingPost(port, "/form", FORM),
      tricklingPost(port, "/api/notes", JSON_TYPE),
      tricklingPost(port, "/monitoring", ENVELOPE),
    ]);
    for (const answer of [page, api, tunnel]) {
      expect(answer).toMatchObject({ status: 408, closed: true });
      // A trickle keeps the connection from going idle: the deadline, not Bun's idleTimeout, ended it.
      expect(answer.ms).toBeGreaterThanOrEqual(380);
      expect(answer.ms).toBeLessThan(4_000);
    }
  });

  test("one visitor holds at most its share of the slots, and the deadline gives them back", async () => {
    // Twice the share from one address at once: one share is read (then 408), the rest refused unread.
    const share = BODY_READS_AT_ONCE / CLIENT_SHARE;
    const answers = await Promise.all(Array.from({ length: 2 * share }, () => tricklingPost(port, "/form", FORM)));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([...Array<number>(share).fill(408), ...Array<number>(share).fill(429)]);
    const after = await fetch(`${t.origin}/form`, { method: "POST", headers: { ...FORM, origin: t.origin }, body: "text=again", redirect: "manual" });
    expect(after.status).toBe(303);
  });
});
