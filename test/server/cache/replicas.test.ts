// Two replicas of the fixture app, each in a process of its own, on one PostgreSQL: an action's revalidateTag on one
// drops the kept answers of the other, through the database (cache/replicas.ts, pg-invalidations.ts).
import { expect, test } from "bun:test";
import { useReplicas } from "../../support/replicas.ts";
import { until } from "../../support/until.ts";

const replicas = useReplicas(2);

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
  const [a, b] = replicas.origins() as [string, string];
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
