// report.ts: tables as Markdown, the same text for the terminal and for bench/RESULTS.md.

export interface Table {
  title: string;
  note?: string;
  header: string[];
  rows: string[][];
}

/** One figure the issue sets a target for. */
export interface Target {
  figure: string;
  measured: string;
  target: string;
  /** Undefined when the figure could not be measured in this run. */
  pass: boolean | undefined;
}

export function verdict(pass: boolean | undefined): string {
  return pass === undefined ? "NOT MEASURED" : pass ? "PASS" : "MISS";
}

export function targetsTable(targets: Target[]): Table {
  return {
    title: "Targets (Sentry on unless noted)",
    note: "Where a throughput target is missed, the next table splits its time by layer; bench/README.md says where the rest of the time or the bytes go, from profiles and `bun bench/ablation.ts`.",
    header: ["figure", "measured", "target", "result"],
    rows: targets.map((t) => [t.figure, t.measured, t.target, verdict(t.pass)]),
  };
}

export function markdown(table: Table): string {
  const line = (cells: string[]) => `| ${cells.map((c) => c.replaceAll("|", "\\|")).join(" | ")} |`;
  const numeric = (i: number) => table.rows.every((r) => /^[\d.,]/.test(r[i] ?? ""));
  const align = table.header.map((_, i) => (numeric(i) ? "---:" : "---"));
  return [
    `### ${table.title}`,
    "",
    ...(table.note ? [table.note, ""] : []),
    line(table.header),
    line(align),
    ...table.rows.map(line),
    "",
  ].join("\n");
}
