// Two replicas of the fixture app, each in a process of its own, on one PostgreSQL: an action's revalidateTag on one
// drops the kept answers of the other, through the database (cache/replicas.ts, pg-invalidations.ts).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Subprocess } from "bun";
import { startPostgres, type Postgres } from "brisk/test";
import { until } from "../../support/until.ts";

const SERVER = join(import.meta.dir, "../../support/replica-server.ts");
let pg: Postgres;
let dataDir: string;
const replicas: Array<{ proc: Subprocess<"ignore", "pipe", "inherit">; origin: string }> = [];

async function startReplica(databaseUrl: string) {
  const proc = Bun.spawn(["bun", SERVER], {
    env: { ...Bun.env, NODE_ENV: "production", DATABASE_URL: databaseUrl, DATA_DIR: dataDir },
    stdout: "pipe",
    stderr: "inherit",
  });
  const reader = proc.stdout.getReader();
  let out = "";
  while (!out.includes("\n")) {
    const { done, value } = await reader.read();
    if (done) throw new Error(`the replica exited before listening: ${out}`);
    out += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  const origin = out.split("\n").find((line) => line.startsWith("http://"))!;
  replicas.push({ proc, origin });
  return origin;
}

beforeAll(async () => {
  pg = await startPostgres();
  dataDir = await mkdtemp(join(tmpdir(), "brisk-replicas-"));
  const url = await pg.createDatabase("replicas");
  await Promise.all([startReplica(url), startReplica(url)]);
}, 60_000);
afterAll(async () => {
  for (const { proc } of replicas) proc.kill("SIGTERM");
  await Promise.all(replicas.map(({ proc }) => proc.exited));
  await pg?.remove();
  await rm(dataDir, { recursive: true, force: true });
});

const renderOf = async (origin: string, path: string) => {
  const res = await fetch(origin + path);
  return { render: Number(/Render (?:<!-- -->)?(\d+)/.exec(await res.text())?.[1]), cache: res.headers.get("x-cache") };
};

/** Asks until the replica answers from its cache. */
async function keptOn(origin: string, path: string) {
  let last = await renderOf(origin, path);
  await until(async () => (last = await renderOf(origin, path)).cache === "hit", `${path} kept on ${origin}`);
  return last.render;
}

test("a write on one replica drops the other's kept answers within a second", async () => {
  const [a, b] = replicas.map((r) => r.origin) as [string, string];
  const before = await keptOn(b, "/memo?q=replicas");
  await keptOn(a, "/memo?q=replicas");
  const post = await fetch(`${a}/memo`, {
    method: "POST",
    headers: { origin: a, "content-type": "application/x-www-form-urlencoded" },
    body: "x=1",
  });
  expect(post.status).toBe(200);
  await post.text();
  const start = performance.now();
  await until(async () => (await renderOf(b, "/memo?q=replicas")).render > before, "B rendering the page afresh");
  expect(performance.now() - start).toBeLessThan(1_000);
});
