// Stalled uploads (issue 23, R2; issue 29, F6) on a real socket: clients that send a POST's headers and never
// all of its body, reconnecting whenever they are closed, must not shut form actions, API writes or the tunnel
// off for other visitors, from three addresses or from eight that ask for every slot, nor from one behind a
// trusted proxy that writes a new address into X-Forwarded-For each time. A body that falls behind its rate,
// or is not all there by its deadline, is a 408 that frees what it held; a slow phone's upload is not.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { BODY_READS_AT_ONCE } from "../../../src/server/bodies/body-reads.ts";
import { CLIENT_SHARE } from "../../../src/server/request/forwarded.ts";
import { listenApp, startFakeIngest, type FakeIngest, type ListeningApp } from "brisk/test";
import { FIXTURE } from "../../support/app.ts";
import { stallUploads } from "../../support/stalled-uploads.ts";
import { until, within } from "../../support/until.ts";

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

/** The three writes a visitor makes, each from 127.0.0.1 (with `extra` headers): the statuses they got. */
async function probe(origin: string, dsn: string, extra: Record<string, string> = {}): Promise<number[]> {
  const same = { origin, ...extra };
  const answers = await Promise.all([
    fetch(`${origin}/form`, { method: "POST", headers: { ...FORM, ...same }, body: "text=probe", redirect: "manual" }),
    fetch(`${origin}/api/notes`, {
      method: "POST",
      headers: { ...JSON_TYPE, ...same },
      body: JSON.stringify({ text: "probe" }),
    }),
    fetch(`${origin}/monitoring`, { method: "POST", headers: { ...ENVELOPE, ...same }, body: envelope(dsn) }),
  ]);
  await Promise.all(answers.map((r) => r.arrayBuffer()));
  return answers.map((r) => r.status);
}

/** The fixture app on a socket, with SENTRY_DSN at the fake ingest and `env`, for the tests of one describe block. */
function serving(env: Record<string, string>): { readonly origin: string; readonly port: number } {
  let t: ListeningApp | undefined;
  beforeAll(async () => {
    t = await listenApp({ ...FIXTURE, env: { SENTRY_DSN: ingest.dsn(), ...env } });
  });
  afterAll(() => t?.stop());
  return {
    get origin() {
      return t!.origin;
    },
    get port() {
      return Number(new URL(t!.origin).port);
    },
  };
}

describe("stalled uploads", () => {
  // A short deadline, so that the stalled posts the server took are closed and opened again during the test.
  const t = serving({ BODY_TIMEOUT_MS: "1500" });

  test("three clients stalling 288 uploads, reconnecting, for 6 s: every write of another visitor still succeeds", async () => {
    const { port } = t;
    const from = ["127.0.0.2", "127.0.0.3", "127.0.0.4"];
    // Each client alone holds more uploads than there are slots, for the pages' and API's pool and the tunnel's.
    const connections = BODY_READS_AT_ONCE / 2;
    const attacks = [
      stallUploads({ port, from, connections, path: "/form", headers: FORM }),
      stallUploads({ port, from, connections, path: "/api/notes", headers: JSON_TYPE }),
      stallUploads({ port, from, connections, path: "/monitoring", headers: ENVELOPE }),
    ];
    await Promise.all(attacks.map((a) => a.ready));
    const probeUntil = performance.now() + 6_000;
    const statuses: number[][] = [];
    while (performance.now() < probeUntil) {
      statuses.push(await probe(t.origin, ingest.dsn()));
      await Bun.sleep(200);
    }
    const ended = await Promise.all(attacks.map((a) => a.stop()));
    expect(statuses.filter((s) => s.join() !== "303,201,200")).toEqual([]);
    expect(statuses.length).toBeGreaterThan(20);
    // The attack did reach the server: those past each client's share were refused, and the posts it took
    // were cut at the deadline and opened again. Actions and API routes share one pool: which of their
    // stalled posts took each client's share is a matter of arrival.
    const [form, api, tunnel] = ended.map((e) => ({
      reopened: e.opened > from.length * connections,
      cut: e.answers.has("408"),
      refused: e.answers.has("429"),
    }));
    const writes = {
      reopened: form!.reopened || api!.reopened,
      cut: form!.cut || api!.cut,
      refused: form!.refused && api!.refused,
    };
    expect({ writes, tunnel }).toEqual({
      writes: { reopened: true, cut: true, refused: true },
      tunnel: { reopened: true, cut: true, refused: true },
    });
  });
});

/**
 * A post that sends its headers and `first` (body bytes), then a byte every `everyMs` (so the connection is
 * never idle), or nothing more without it, and never ends; resolves with the status and body it got (NaN: none
 * within 5 s), how long that took, and whether the server closed the connection: as its answer said it would
 * (`Connection: close`), and did. An answer that keeps the connection is left without waiting.
 */
async function slowPost(
  port: number,
  path: string,
  headers: Record<string, string>,
  { first = "", everyMs }: { first?: string; everyMs?: number } = {},
) {
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
  socket.write(head + first);
  const trickle = everyMs === undefined ? undefined : setInterval(() => socket.write("a"), everyMs);
  const started = performance.now();
  await Promise.race([answered, closed, Bun.sleep(5_000)]);
  const ms = performance.now() - started;
  const closing = /\r\nconnection: close\r\n/i.test(received.slice(0, received.indexOf("\r\n\r\n") + 2));
  const ended = closing && (await within(closed, "the connection's close the answer announced", 5_000));
  clearInterval(trickle);
  socket.end();
  return { status: status(), body: received.slice(received.indexOf("\r\n\r\n") + 4), ms, closed: ended };
}

/**
 * Sends a post's headers and then `body` in 1,000-byte pieces at `bytesPerSecond`, stopping for `pauseMs` once
 * `pauseAfter` bytes have gone; resolves with the status and what came back once the server has answered.
 */
async function uploadAt(
  port: number,
  path: string,
  headers: Record<string, string>,
  body: Uint8Array,
  { bytesPerSecond, pauseAfter, pauseMs }: { bytesPerSecond: number; pauseAfter: number; pauseMs: number },
) {
  const head = `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Length: ${body.byteLength}\r\nConnection: close\r\n${Object.entries(
    headers,
  )
    .map(([n, v]) => `${n}: ${v}\r\n`)
    .join("")}\r\n`;
  let received = "";
  const { promise: closed, resolve: close } = Promise.withResolvers<void>();
  const socket = await Bun.connect({
    hostname: "127.0.0.1",
    port,
    socket: {
      data: (_, chunk) => void (received += new TextDecoder().decode(chunk)),
      close: () => close(),
      error: () => close(),
    },
  });
  socket.write(head);
  const piece = 1_000;
  for (let sent = 0; sent < body.byteLength; sent += piece) {
    socket.write(body.subarray(sent, sent + piece));
    // The link's pace: the client's side of the test, not a wait for the server.
    await Bun.sleep(sent === pauseAfter ? pauseMs : (piece / bytesPerSecond) * 1000);
  }
  await closed;
  return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(received)?.[1]), text: received };
}

const tricklingPost = (port: number, path: string, headers: Record<string, string>) =>
  slowPost(port, path, headers, { everyMs: 50 });

describe("BODY_TIMEOUT_MS", () => {
  const t = serving({ BODY_TIMEOUT_MS: "400" });

  test("a body still arriving at the deadline is a 408 and the connection is closed: actions, API routes and the tunnel", async () => {
    const [page, api, tunnel] = await Promise.all([
      tricklingPost(t.port, "/form", FORM),
      tricklingPost(t.port, "/api/notes", JSON_TYPE),
      tricklingPost(t.port, "/monitoring", ENVELOPE),
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
    const answers = await Promise.all(Array.from({ length: 2 * share }, () => tricklingPost(t.port, "/form", FORM)));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([...Array<number>(share).fill(408), ...Array<number>(share).fill(429)]);
    const after = await fetch(`${t.origin}/form`, {
      method: "POST",
      headers: { ...FORM, origin: t.origin },
      body: "text=again",
      redirect: "manual",
    });
    expect(after.status).toBe(303);
  });
});

describe("BODY_MIN_RATE", () => {
  // The deadline far off: only the rate can end a stalled body within the test.
  const t = serving({ BODY_TIMEOUT_MS: "60000", BODY_RATE_GRACE_MS: "300" });

  test("a body that sends 100 bytes and stalls is a 408 by its rate, long before the deadline, and the connection is closed: actions, API routes and the tunnel", async () => {
    const first = "a".repeat(100);
    const answers = await Promise.all([
      slowPost(t.port, "/form", FORM, { first }),
      slowPost(t.port, "/api/notes", JSON_TYPE, { first }),
      slowPost(t.port, "/monitoring", ENVELOPE, { first }),
    ]);
    for (const answer of answers) {
      expect(answer).toMatchObject({ status: 408, closed: true });
      expect(answer.body).toMatch(
        /the body arrived too slowly: 100 of 100000 bytes after \d+ ms, under 4096 bytes a second/,
      );
      expect(answer.ms).toBeLessThan(5_000);
    }
  });

  test("an upload at 256 kbit/s (a phone on a poor signal) that stops for a second on the way is read whole", async () => {
    const boundary = "----phone";
    const file = "x".repeat(40_000);
    const body = new TextEncoder().encode(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="photo.txt"\r\nContent-Type: text/plain\r\n\r\n${file}\r\n--${boundary}--\r\n`,
    );
    const headers = { ...FORM, "content-type": `multipart/form-data; boundary=${boundary}` };
    const answer = await uploadAt(t.port, "/upload", headers, body, {
      bytesPerSecond: 32_000,
      pauseAfter: 8_000,
      pauseMs: 1_000,
    });
    expect(answer).toMatchObject({ status: 200 });
    expect(answer.text).toContain("40000");
  });

  test("a trickle of a byte every 50 ms is as slow as a stall", async () => {
    const answer = await slowPost(t.port, "/form", FORM, { everyMs: 50 });
    expect(answer).toMatchObject({ status: 408, closed: true });
    expect(answer.body).toContain("the body arrived too slowly");
  });
});

describe("stalled uploads from eight addresses, a share's worth each to both pools (issue 29, F6)", () => {
  const t = serving({ BODY_RATE_GRACE_MS: "1000" });

  test("hold every slot until their rate refuses them; from then on another visitor's writes succeed", async () => {
    const { port } = t;
    const from = Array.from({ length: CLIENT_SHARE }, (_, i) => `127.0.0.${i + 2}`);
    const connections = BODY_READS_AT_ONCE / CLIENT_SHARE;
    const stall = { port, from, connections, sent: 100 };
    const attacks = [
      stallUploads({ ...stall, path: "/form", headers: FORM }),
      stallUploads({ ...stall, path: "/monitoring", headers: ENVELOPE }),
    ];
    await Promise.all(attacks.map((a) => a.ready));
    // Every slot of both pools is held once the server has taken the posts in: before the pace, this lasted as
    // long as the attack.
    let probed: number[] = [];
    await until(
      async () => (probed = await probe(t.origin, ingest.dsn())).every((s) => s === 429),
      () => `every write refused; the last probe got ${probed}`,
    );
    // Each stalled post the server took is cut by its rate; each address then holds one slot at a time.
    await Promise.all(attacks.map((a) => a.answered("408", BODY_READS_AT_ONCE)));
    const rounds: number[][] = [];
    for (let i = 0; i < 5; i++) rounds.push(await probe(t.origin, ingest.dsn()));
    const ended = await Promise.all(attacks.map((a) => a.stop()));
    expect(rounds).toEqual(Array.from({ length: 5 }, () => [303, 201, 200]));
    // The addresses kept reconnecting, and past their one slot they were refused.
    for (const { answers } of ended) expect(answers.get("429")).toBeGreaterThan(0);
  });
});

describe("bodies trickled at the pace from eight addresses, sized to last (red team N2)", () => {
  // A pace well under the trickle's, so that no body of the attack ever falls behind it: only the pool can end them.
  const t = serving({ BODY_MIN_RATE: "1000" });

  test("hold every slot until another visitor posts; the body with the longest still to go yields it (408), and every write is served", async () => {
    const { port } = t;
    const from = Array.from({ length: CLIENT_SHARE }, (_, i) => `127.0.0.${i + 20}`);
    // A share's worth and one more from each address, so that the extra one's 429 says its share is full:
    // the addresses hold every slot of the pool. Each body would take 20 s at 5,000 bytes a second.
    const connections = BODY_READS_AT_ONCE / CLIENT_SHARE + 1;
    const trickle = { port, from, connections, sent: 100, declared: 100_000, bytesPerSecond: 5_000 };
    const attacks = [
      stallUploads({ ...trickle, path: "/form", headers: FORM }),
      stallUploads({ ...trickle, path: "/monitoring", headers: ENVELOPE }),
    ];
    await Promise.all(attacks.map((a) => a.answered("429", from.length)));
    // Before, they held it for as long as they kept posting: each body 20 s, answered 200, never a 408.
    let probed: number[] = [];
    await until(
      async () => (probed = await probe(t.origin, ingest.dsn())).join() === "303,201,200",
      () => `every write served; the last probe got ${probed}`,
      5_000,
    );
    const rounds: number[][] = [];
    for (let i = 0; i < 5; i++) rounds.push(await probe(t.origin, ingest.dsn()));
    const ended = await Promise.all(attacks.map((a) => a.stop()));
    expect(rounds).toEqual(Array.from({ length: 5 }, () => [303, 201, 200]));
    // The slots the visitor got were taken back from the trickles, not freed by their ends.
    for (const { answers } of ended) expect(answers.get("408")).toBeGreaterThan(0);
  });
});

describe("behind TRUST_PROXY", () => {
  const t = serving({ TRUST_PROXY: "1" });

  test("a client that writes a new address before the proxy's on each stalled post is one client, held to its share", async () => {
    const { port } = t;
    // What the proxy passes on: the client's own header, then the address the proxy saw, appended.
    const rotating = (base: Record<string, string>) => (n: number) => ({
      ...base,
      "x-forwarded-for": `10.0.${n >> 8}.${n & 255}, 203.0.113.66`,
    });
    const stall = { port, from: ["127.0.0.2"], connections: BODY_READS_AT_ONCE, sent: 100 };
    const attacks = [
      stallUploads({ ...stall, path: "/form", headers: rotating(FORM) }),
      stallUploads({ ...stall, path: "/monitoring", headers: rotating(ENVELOPE) }),
    ];
    await Promise.all(attacks.map((a) => a.ready));
    // One share read, the rest refused before the rate had anything to do with it.
    const share = BODY_READS_AT_ONCE / CLIENT_SHARE;
    await Promise.all(attacks.map((a) => a.answered("429", BODY_READS_AT_ONCE - share)));
    const proxied = await probe(t.origin, ingest.dsn(), { "x-forwarded-for": "203.0.113.77" });
    await Promise.all(attacks.map((a) => a.stop()));
    expect(proxied).toEqual([303, 201, 200]);
  });
});
