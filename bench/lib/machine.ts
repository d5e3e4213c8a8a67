// machine.ts: what the numbers were measured on and with: CPU, cores, kernel, versions, date.
import { readFileSync } from "node:fs";
import { cpus, release, totalmem } from "node:os";
import { join } from "node:path";

export interface Machine {
  cpu: string;
  cores: number;
  kernel: string;
  memoryGiB: number;
  versions: Record<string, string>;
  date: string;
}

const PACKAGES = ["react", "react-dom", "elysia", "wouter", "@sentry/bun", "@sentry/react", "@sentry/core"];

function installedVersion(root: string, name: string): string {
  try {
    return (JSON.parse(readFileSync(join(root, "node_modules", name, "package.json"), "utf8")) as { version: string })
      .version;
  } catch {
    return "not installed";
  }
}

function wrkVersion(): string {
  const out = Bun.spawnSync(["wrk", "-v"]).stdout.toString();
  return /^wrk (\S+)/m.exec(out)?.[1] ?? "unknown";
}

export function describeMachine(root: string): Machine {
  const model =
    /^model name\s*:\s*(.+)$/m.exec(readFileSync("/proc/cpuinfo", "utf8"))?.[1] ?? cpus()[0]?.model ?? "unknown";
  const versions: Record<string, string> = { bun: `${Bun.version} (${Bun.revision.slice(0, 9)})` };
  for (const name of PACKAGES) versions[name] = installedVersion(root, name);
  versions.wrk = wrkVersion();
  return {
    cpu: model.trim(),
    cores: cpus().length,
    kernel: release(),
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    versions,
    date: new Date().toISOString(),
  };
}
