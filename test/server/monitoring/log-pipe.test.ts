// log-pipe.test.ts: the binary writing its log into a named pipe whose reader exits and later comes back, as a
// restarting log shipper does: the server keeps serving, and says how many lines it could not write.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { closeSync, createReadStream, openSync } from "node:fs";
import { join } from "node:path";
import { binaryAlone, BUILD_TIMEOUT_MS, type Alone } from "../../support/binary.ts";
import { freePort } from "brisk/test";
import { serverEnv, waitForStatus } from "../../support/process.ts";
import { changes } from "../../support/until.ts";

let alone: Alone;
beforeAll(async () => {
  alone = await binaryAlone();
}, BUILD_TIMEOUT_MS);
afterAll(() => alone?.remove());

test("a log reader that exits does not stop the server; the next reader gets the count of lines lost", async () => {
  const fifo = join(alone.dir, "log.fifo");
  expect(await Bun.spawn(["mkfifo", fifo]).exited).toBe(0);
  // The first reader takes 10 bytes and exits, as `brisk > fifo` with a log shipper that dies.
  const first = Bun.spawn(["head", "-c", "10", fifo], { stdout: "ignore" });
  const fd = openSync(fifo, "w");
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const server = Bun.spawn([alone.binary], {
    cwd: alone.dir,
    env: serverEnv({ HOST: "127.0.0.1", PORT: String(port) }),
    stdout: fd,
    stderr: "pipe",
  });
  closeSync(fd);
  let stderr = "";
  const output = changes();
  void (async () => {
    for await (const chunk of server.stderr) {
      stderr += new TextDecoder().decode(chunk);
      output.changed();
    }
  })();
  try {
    // It exits once the "listening" line has come: from then on no one reads, and every line fails to be written.
    await first.exited;
    await waitForStatus(`${origin}/healthz`);
    const lost = 5;
    for (let i = 0; i < lost; i++) expect((await fetch(`${origin}/search?q=${i}`)).status).toBe(200);
    await output.until(() => stderr.includes("brisk: log lines dropped (EPIPE)"), "the warning on stderr");
    expect(server.exitCode).toBeNull();
    expect(stderr.trimEnd().split("\n")).toHaveLength(1);

    // A new reader, there once the open returns: the pipe works again, and the first thing it reads is the count.
    const second = createReadStream("", { fd: openSync(fifo, "r") });
    let read = "";
    const reading = (async () => {
      for await (const chunk of second) {
        read += String(chunk);
        output.changed();
      }
    })();
    const res = await fetch(`${origin}/healthz`);
    expect(res.status).toBe(200);
    const id = res.headers.get("x-request-id")!;
    await output.until(() => read.includes(id), "the health check's line through the pipe");
    // The pipe still held the rest of the line the first reader began: the lines after it are whole.
    const lines = read
      .trimEnd()
      .split("\n")
      .slice(1)
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    // Before it, the start-up lines the pipe held when the first reader left; then the count of the lines
    // written while no one read: the first health check's and the searches'. Lines go out in batches every few
    // milliseconds, so the last searches' may still have been waiting when this reader came: those it reads.
    const count = lines.findIndex((l) => l.msg === "log lines dropped");
    expect(lines.slice(0, count).map((l) => l.msg)).not.toContain("request");
    const requests = ["/healthz", ...Array<string>(lost).fill("/search"), "/healthz"];
    const delivered = lines.slice(count + 1).map((l) => l.path);
    expect(delivered).toEqual(requests.slice(-delivered.length));
    expect(lines[count]).toMatchObject({
      level: "warn",
      msg: "log lines dropped",
      dropped: requests.length - delivered.length,
    });
    expect(lines.at(-1)).toMatchObject({ msg: "request", path: "/healthz", requestId: id });
    server.kill("SIGTERM");
    expect(await server.exited).toBe(0);
    await reading;
  } finally {
    server.kill("SIGKILL");
  }
});
