// config.ts (brisk/test): the configuration a served app gets: production, and one DATA_DIR per test process.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseConfig, type Config } from "../config/config.ts";

let dataDir: string | undefined;

/** One DATA_DIR per test process (the SQLite store, the generated cookie secret), removed when it ends. */
export function testDataDir(): string {
  if (!dataDir) {
    const dir = (dataDir = mkdtempSync(join(tmpdir(), "brisk-data-")));
    process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
  }
  return dataDir;
}

/** The configuration from these environment variables, over NODE_ENV=production and the test DATA_DIR. */
export function testConfig(env: Record<string, string> = {}): Config {
  return parseConfig({ NODE_ENV: "production", DATA_DIR: testDataDir(), ...env });
}
