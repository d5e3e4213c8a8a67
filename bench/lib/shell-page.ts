// shell-page.ts: the partly prerendered items page (`/shell/items`, `shell: true`: the table prerendered at start,
// one line resumed per request) under wrk, against the reference rendering the same page whole for every request;
// with proof that Brisk answered from its shell (a hole's <template> in the answer) and that the page, once its hole
// is in place, is the reference's.
import { mainOf, placedMainOf } from "./page-main.ts";
import type { Child } from "./proc.ts";
import { measureInTurns, type Endpoint, type Measurement, type MeasureOptions } from "./throughput.ts";

export const SHELL_PATH = "/shell/items";
/** What a shell's answer has where its hole goes, and a page rendered whole has not. */
const HOLE = '<template id="B:0">';

export interface ShellPageResult {
  /** Brisk's servers and the reference, on SHELL_PATH. */
  measurements: Measurement[];
  /** Of each Brisk server's answer before the load: whether it came from the shell. */
  fromShell: Record<string, boolean>;
  bytes: { brisk: number; reference: number };
  /** Brisk's <main> with its hole in place is the reference's. */
  samePage: boolean;
}

const pageOf = (server: Child) => fetch(server.origin + SHELL_PATH).then((res) => res.text());

export async function measureShellPage(
  brisk: readonly Child[],
  reference: Child,
  turns: Omit<MeasureOptions, "pathFor" | "headers" | "beforeRun">,
): Promise<ShellPageResult> {
  const fromShell: Record<string, boolean> = {};
  for (const server of brisk) fromShell[server.name] = (await pageOf(server)).includes(HOLE);
  const [first, ...others] = brisk as [Child, ...Child[]];
  const sides: Endpoint[] = [first, reference, ...others];
  const measurements = await measureInTurns(sides, SHELL_PATH, turns);
  const [briskHtml, referenceHtml] = await Promise.all([pageOf(first), pageOf(reference)]);
  const main = placedMainOf(briskHtml);
  return {
    measurements,
    fromShell,
    bytes: { brisk: Buffer.byteLength(briskHtml), reference: Buffer.byteLength(referenceHtml) },
    samePage: main !== undefined && main === mainOf(referenceHtml),
  };
}
