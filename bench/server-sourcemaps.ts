// server-sourcemaps.ts: `bun bench/server-sourcemaps.ts`: what embedding the server's source maps costs the binary:
// size, cold start and the CPU it takes (5 rounds of 3 starts each, the two binaries in turns), and RSS idle
// and after 2,000 requests to /.
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildBinary } from "../scripts/build.ts";
import { coldStarts, startBinary, type Binary } from "./lib/binary.ts";
import { LOAD_CORE, memoryOf, pinSelf } from "./lib/proc.ts";
import { median } from "./lib/stats.ts";

const ROUNDS = 5;
const STARTS_PER_ROUND = 3;

pinSelf(LOAD_CORE);
const work = await mkdtemp(join(tmpdir(), "brisk-server-maps-"));
try {
  const empty = join(work, "empty");
  await mkdir(empty);
  const variants = [];
  for (const serverSourcemaps of [true, false]) {
    const built = await buildBinary({ outdir: join(work, serverSourcemaps ? "with" : "without"), serverSourcemaps });
    variants.push({ name: serverSourcemaps ? "with" : "without", binary: { path: built.binary, origin: "", bytes: built.bytes } as Binary, ms: [] as number[], cpu: [] as number[] });
  }
  for (let round = 0; round < ROUNDS; round++) {
    for (const v of round % 2 ? [...variants].reverse() : variants) {
      const { coldStartsMs, coldStartCpuMs } = await coldStarts(v.binary, {}, empty, STARTS_PER_ROUND);
      v.ms.push(...coldStartsMs);
      v.cpu.push(...coldStartCpuMs);
    }
  }
  console.log(`| server source maps | binary size | cold start, median of ${ROUNDS * STARTS_PER_ROUND} | CPU by the first 200 | idle RSS | RSS after 2,000 GET / |`);
  console.log("| --- | ---: | ---: | ---: | ---: | ---: |");
  for (const v of variants) {
    const running = await startBinary(v.binary, {}, empty);
    try {
      await Bun.sleep(1_000);
      const idle = memoryOf(running.pid).rssMiB;
      for (let i = 0; i < 2_000; i++) await (await fetch(`${running.origin}/`)).arrayBuffer();
      const { rssMiB } = memoryOf(running.pid);
      const mib = (v.binary.bytes / 1_048_576).toFixed(1);
      console.log(`| ${v.name} | ${mib} MiB (${v.binary.bytes.toLocaleString("en")} B) | ${median(v.ms).toFixed(1)} ms | ${median(v.cpu).toFixed(0)} ms | ${idle.toFixed(1)} MiB | ${rssMiB.toFixed(1)} MiB |`);
    } finally {
      await running.stop();
    }
  }
} finally {
  await rm(work, { recursive: true, force: true });
}
