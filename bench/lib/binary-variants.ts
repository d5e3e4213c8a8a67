// binary-variants.ts: two or more builds of the bench app's binary compared: size, cold start and the CPU it takes (rounds of
// starts, the binaries in turns), and RSS idle and after 2,000 requests to /. Printed as a Markdown table.
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildBinary, type BinaryOptions } from "../../src/server/build/binary.ts";
import { BENCH_APP } from "./bench-app.ts";
import { coldStarts, startBinary, type Binary } from "./binary.ts";
import { LOAD_CORE, memoryOf, pinSelf } from "./proc.ts";
import { median } from "./stats.ts";

const ROUNDS = 5;
const STARTS_PER_ROUND = 3;

export async function compareBinaries(
  label: string,
  variants: ReadonlyArray<{ name: string; options: BinaryOptions }>,
): Promise<void> {
  pinSelf(LOAD_CORE);
  const work = await mkdtemp(join(tmpdir(), "brisk-binaries-"));
  try {
    const empty = join(work, "empty");
    await mkdir(empty);
    const built = [];
    for (const [i, v] of variants.entries()) {
      const { binary, bytes } = await buildBinary({
        ...v.options,
        appModule: BENCH_APP,
        outdir: join(work, String(i)),
      });
      built.push({
        name: v.name,
        binary: { path: binary, origin: "", bytes } as Binary,
        ms: [] as number[],
        cpu: [] as number[],
      });
    }
    for (let round = 0; round < ROUNDS; round++) {
      for (const v of round % 2 ? [...built].reverse() : built) {
        const { coldStartsMs, coldStartCpuMs } = await coldStarts(v.binary, {}, empty, STARTS_PER_ROUND);
        v.ms.push(...coldStartsMs);
        v.cpu.push(...coldStartCpuMs);
      }
    }
    console.log(
      `| ${label} | binary size | cold start, median of ${ROUNDS * STARTS_PER_ROUND} | CPU by the first 200 | idle RSS | RSS after 2,000 GET / |`,
    );
    console.log("| --- | ---: | ---: | ---: | ---: | ---: |");
    for (const v of built) {
      const running = await startBinary(v.binary, {}, empty);
      try {
        await Bun.sleep(1_000);
        const idle = memoryOf(running.pid).rssMiB;
        for (let i = 0; i < 2_000; i++) await (await fetch(`${running.origin}/`)).arrayBuffer();
        const { rssMiB } = memoryOf(running.pid);
        const mib = (v.binary.bytes / 1_048_576).toFixed(1);
        console.log(
          `| ${v.name} | ${mib} MiB (${v.binary.bytes.toLocaleString("en")} B) | ${median(v.ms).toFixed(1)} ms | ${median(v.cpu).toFixed(0)} ms | ${idle.toFixed(1)} MiB | ${rssMiB.toFixed(1)} MiB |`,
        );
      } finally {
        await running.stop();
      }
    }
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
