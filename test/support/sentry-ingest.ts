// sentry-ingest.ts (test support): what the tests of Sentry share, started before a file's tests and stopped after
// them: a recording fake ingest, the client build and a data folder of the file's own; with useServerSentry, the
// server's real Sentry sending to that ingest too. Call either at the top level of a test file, before its own hooks.
import { afterAll, beforeAll } from "bun:test";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ClientAssets } from "../../src/server/assets/assets.ts";
import { initServerSentry, type ServerMonitoring } from "../../src/server/monitoring/sentry.ts";
import type { ClientMode } from "../../src/server/testing/serve.ts";
import { startFakeIngest, type FakeIngest } from "brisk/test";
import { clientAssets, testConfig } from "./app.ts";

export interface IngestSetup {
  ingest: FakeIngest;
  assets: ClientAssets;
  /** DATA_DIR: where an outbox would go, never the working folder. */
  dataDir: string;
}

export interface ServerSentrySetup extends IngestSetup {
  monitoring: ServerMonitoring;
  /** SENTRY_DSN (the ingest), DATA_DIR and what the file asked for: the environment to serve the app with. */
  env: Record<string, string>;
  /** What to hand the app's server so that it reports through `monitoring`. */
  deps: Pick<ServerMonitoring, "capture" | "monitor">;
}

const ready = <T>(value: T | undefined): T => {
  if (value === undefined) throw new Error("sentry-ingest: read it in a test or a hook, after the file's beforeAll");
  return value;
};

/** A fake ingest, the client build and a data folder for the file; the getter reads them once started. */
export function useFakeIngest(clientMode?: ClientMode): () => IngestSetup {
  let setup: IngestSetup | undefined;
  beforeAll(async () => {
    const [ingest, assets, dataDir] = await Promise.all([
      startFakeIngest(),
      clientAssets(clientMode),
      mkdtemp(join(tmpdir(), "brisk-sentry-")),
    ]);
    setup = { ingest, assets, dataDir };
  });
  afterAll(async () => {
    await setup?.ingest.stop();
    if (setup) await rm(setup.dataDir, { recursive: true, force: true });
  });
  return () => ready(setup);
}

/** useFakeIngest, and the server's Sentry started on it with `env` on top of the DSN; closed after the file. */
export function useServerSentry(env: Record<string, string> = {}, clientMode?: ClientMode): () => ServerSentrySetup {
  const base = useFakeIngest(clientMode);
  let setup: ServerSentrySetup | undefined;
  beforeAll(() => {
    const { ingest, assets, dataDir } = base();
    const all = { SENTRY_DSN: ingest.dsn(), DATA_DIR: dataDir, ...env };
    const monitoring = initServerSentry(testConfig(all), assets.manifest.buildId, { log: () => {} })!;
    setup = { ...base(), monitoring, env: all, deps: { capture: monitoring.capture, monitor: monitoring.monitor } };
  });
  // Sentry is global to the process: later test files must not inherit this client.
  afterAll(async () => {
    await setup?.monitoring.close(2_000);
  });
  return () => ready(setup);
}
