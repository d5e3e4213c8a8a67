// wrk.ts: one wrk run on the load core, its summary read from a Lua done() hook instead of parsing text.
import { join } from "node:path";
import { LOAD_CORE, pinned } from "./proc.ts";

export interface WrkResult {
  requests: number;
  seconds: number;
  rps: number;
  p50Ms: number;
  p99Ms: number;
  /** Responses whose status was not 2xx or 3xx. */
  non2xx: number;
  /** connect, read, write errors and timeouts together. */
  socketErrors: number;
  /** CPU seconds wrk itself used: ours, not foreign load. */
  cpuSeconds: number;
  /** Latency at the 0.05th, 0.15th … 99.95th percentile (1,000 values, ms): runs pool these. */
  quantilesMs: number[];
}

export interface WrkOptions {
  url: string;
  seconds: number;
  connections?: number;
  /** A POST body (file path) sent with every request. */
  bodyFile?: string;
  contentType?: string;
  /** Sent with every request besides wrk's own (Host, Content-Length). */
  headers?: Record<string, string>;
  /** Where the generated Lua script is written. */
  workDir: string;
}

/** Connections wrk keeps open unless told otherwise. */
export const CONNECTIONS = 50;

const MARK = "BENCH_JSON ";

// done() runs once, after the run: it costs nothing per request, unlike a response() hook would.
const DONE = `
done = function(summary, latency, requests)
  local e = summary.errors
  local q = {}
  for i = 1, 1000 do q[i] = string.format("%.0f", latency:percentile((i - 0.5) / 10)) end
  io.write(string.format('\\n${MARK}{"requests":%.0f,"us":%.0f,"status":%.0f,"socket":%.0f,"p50":%.0f,"p99":%.0f,"q":[%s]}\\n',
    summary.requests, summary.duration, e.status, e.connect + e.read + e.write + e.timeout,
    latency:percentile(50), latency:percentile(99), table.concat(q, ",")))
end
`;

function script(options: WrkOptions): string {
  const headers = Object.entries(options.headers ?? {}).map(
    ([name, value]) => `wrk.headers[${JSON.stringify(name)}] = ${JSON.stringify(value)}\n`,
  );
  if (!options.bodyFile) return `${headers.join("")}${DONE}`;
  return `
wrk.method = "POST"
local f = assert(io.open(${JSON.stringify(options.bodyFile)}, "rb"))
wrk.body = f:read("*a")
f:close()
wrk.headers["Content-Type"] = ${JSON.stringify(options.contentType ?? "application/octet-stream")}
${headers.join("")}${DONE}`;
}

export async function runWrk(options: WrkOptions): Promise<WrkResult> {
  const lua = join(options.workDir, `wrk-${options.bodyFile ? "post" : "get"}.lua`);
  await Bun.write(lua, script(options));
  // One thread: it has one core to itself, and a second would only contend with the first.
  const cmd = pinned(LOAD_CORE, [
    "wrk",
    "-t1",
    `-c${options.connections ?? CONNECTIONS}`,
    `-d${options.seconds}s`,
    "--timeout",
    "5s",
    "-s",
    lua,
    options.url,
  ]);
  const proc = Bun.spawn(cmd, { stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  const line = out.split("\n").find((l) => l.startsWith(MARK));
  if (code !== 0 || !line) throw new Error(`wrk failed (${code}) on ${options.url}:\n${out}\n${err}`);
  const { q, ...r } = JSON.parse(line.slice(MARK.length)) as Record<string, number> & { q: number[] };
  const usage = proc.resourceUsage();
  const seconds = r.us! / 1e6;
  return {
    requests: r.requests!,
    seconds,
    rps: r.requests! / seconds,
    p50Ms: r.p50! / 1000,
    p99Ms: r.p99! / 1000,
    non2xx: r.status!,
    socketErrors: r.socket!,
    cpuSeconds: usage ? Number(usage.cpuTime.user + usage.cpuTime.system) / 1e6 : 0,
    quantilesMs: q.map((us) => us / 1000),
  };
}
