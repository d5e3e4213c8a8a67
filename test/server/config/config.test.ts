// config.test.ts: parseConfig's defaults and checks, and a bad variable stopping the real process with one line.
import { resolve } from "node:path";
import { describe, expect, test } from "bun:test";
import { parseConfig } from "../../../src/server/config/config.ts";
import { configErrorOf as errorOf, runServer } from "../../support/config.ts";

describe("parseConfig", () => {
  test("an empty environment gives the documented defaults", () => {
    const config = parseConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: "0.0.0.0",
      mode: "production",
      sentryEnvironment: "production",
      tunnelDsns: [],
      monitoringMaxBytes: 1_048_576,
      monitoringTimeoutMs: 5_000,
      monitoringMaxInFlight: 64,
      trustProxy: false,
      proxyHops: 0,
      shutdownTimeoutMs: 10_000,
    });
    expect(config.sentryDsn).toBeUndefined();
    expect(config.sentryRelease).toBeUndefined();
    expect(config.hstsMaxAge).toBeUndefined();
    expect(Object.isFrozen(config)).toBe(true);
  });

  test("development listens on 127.0.0.1 unless HOST says otherwise", () => {
    expect(parseConfig({ NODE_ENV: "development" }).host).toBe("127.0.0.1");
    expect(parseConfig({ NODE_ENV: "development", HOST: "0.0.0.0" }).host).toBe("0.0.0.0");
  });

  test("reads every variable", () => {
    const config = parseConfig({
      PORT: "8080",
      HOST: "127.0.0.1",
      NODE_ENV: "development",
      SENTRY_DSN: "https://key@o1.ingest.sentry.io/42",
      SENTRY_TUNNEL_DSNS: "https://other@sentry.example.com/7",
      SENTRY_ENVIRONMENT: "staging",
      SENTRY_RELEASE: "brisk@1.2.3",
      SENTRY_TRACES_SAMPLE_RATE: "0.25",
      MONITORING_MAX_BYTES: "2048",
      MONITORING_TIMEOUT_MS: "1500",
      MONITORING_MAX_IN_FLIGHT: "8",
      TRUST_PROXY: "true",
      SHUTDOWN_TIMEOUT_MS: "2500",
      HSTS_MAX_AGE: "31536000",
    });
    expect(config).toMatchObject({
      port: 8080,
      host: "127.0.0.1",
      mode: "development",
      sentryDsn: "https://key@o1.ingest.sentry.io/42",
      tunnelDsns: ["https://key@o1.ingest.sentry.io/42", "https://other@sentry.example.com/7"],
      sentryEnvironment: "staging",
      sentryRelease: "brisk@1.2.3",
      sentryTracesSampleRate: 0.25,
      monitoringMaxBytes: 2048,
      monitoringTimeoutMs: 1500,
      monitoringMaxInFlight: 8,
      trustProxy: true,
      proxyHops: 1,
      shutdownTimeoutMs: 2500,
      hstsMaxAge: 31_536_000,
    });
  });

  test.each([
    ["true", 1],
    ["1", 1],
    ["TRUE", 1],
    ["2", 2],
    ["false", 0],
    ["0", 0],
    ["", 0],
  ])("TRUST_PROXY=%p is %p proxies appending to X-Forwarded-For", (value, hops) => {
    expect(parseConfig({ TRUST_PROXY: value })).toMatchObject({ trustProxy: hops > 0, proxyHops: hops });
  });

  test("an unknown NODE_ENV is production, which never shows messages or stacks", () => {
    expect(parseConfig({ NODE_ENV: "staging" }).mode).toBe("production");
  });

  test.each([
    ["PORT", "abc"],
    ["PORT", "70000"],
    ["PORT", "-1"],
    ["PORT", "80.5"],
    ["SENTRY_DSN", "not a dsn"],
    ["SENTRY_DSN", "https://o1.ingest.sentry.io/42"],
    ["SENTRY_DSN", "ftp://key@example.com/1"],
    ["SENTRY_TUNNEL_DSNS", "https://key@example.com/1, nonsense"],
    ["SENTRY_DSN", "https://key@example.com/"],
    ["SENTRY_DSN", "https://key@example.com/1?x=@evil.example/2"],
    ["SENTRY_DSN", "https://key@example.com/1#2"],
    ["SENTRY_DSN", "https://key@exam ple.com/1"],
    ["SENTRY_DSN", "https://key@example.com/ 1"],
    ["SENTRY_DSN", "https://key@example.com/1\t2"],
    ["SENTRY_DSN", "https://key@example.com/1/"],
    ["SENTRY_TUNNEL_DSNS", "https://key@example.com/1?x=@evil.example/2"],
    ["MONITORING_MAX_BYTES", "0"],
    ["MONITORING_MAX_BYTES", "1MB"],
    ["MONITORING_MAX_BYTES", "999999999999"],
    ["SENTRY_TRACES_SAMPLE_RATE", "2"],
    ["TRUST_PROXY", "yes please"],
    ["TRUST_PROXY", "11"],
    ["TRUST_PROXY", "-1"],
    ["SHUTDOWN_TIMEOUT_MS", "soon"],
    ["HSTS_MAX_AGE", "1y"],
    ["HSTS_MAX_AGE", "99999999999"],
  ])("%s=%p is refused with an error naming the variable", (variable, value) => {
    const error = errorOf({ [variable]: value });
    expect(error.variable).toBe(variable);
    expect(error.message).toStartWith(`${variable}: `);
  });
});

test.each([
  "https://0123456789abcdef0123456789abcdef@o123.ingest.us.sentry.io/4500000000000001",
  "https://key:oldsecret@sentry.example.com/7",
  "https://key@sentry.example.com:9000/sentry/prefix/7",
  "http://key@127.0.0.1:9000/42",
  "http://key@[::1]:9000/42",
  "http://key@sentry_relay:3000/1",
])("SENTRY_DSN=%p, as Sentry issues DSNs, is accepted", (dsn) => {
  expect(parseConfig({ SENTRY_DSN: dsn }).sentryDsn).toBe(dsn);
});

describe("starting with a bad variable", () => {
  test.each([
    ["PORT", "99999", "must be between 0 and 65535"],
    ["PORT", "http", "expected a whole number"],
    ["SENTRY_DSN", "https://sentry.example.com/1", "not a valid Sentry DSN"],
    ["SENTRY_DSN", "https://key@sentry.example.com/", "not a valid Sentry DSN"],
    ["SENTRY_DSN", "https://key@sentry.example.com/1?x=@evil.example/2", "not a valid Sentry DSN"],
    ["MONITORING_MAX_BYTES", "-5", "expected a whole number"],
    ["MONITORING_MAX_BYTES", "10", "must be between 1024"],
  ])("%s=%p prints one line naming it and exits 1", async (variable, value, reason) => {
    const { code, stdout, stderr } = await runServer({ [variable]: value });
    expect(code).toBe(1);
    expect(stdout).toBe("");
    const lines = stderr.trimEnd().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toStartWith(`brisk: invalid configuration: ${variable}: `);
    expect(lines[0]).toContain(reason);
  });
});

describe("monitoring data: SENTRY_SEND_DEFAULT_PII, DATA_DIR, SENTRY_OUTBOX_MAX, SENTRY_OUTBOX_MAX_BYTES", () => {
  test("default to no personal data, ./data from the working folder and 1000 envelopes in 32 MiB", () => {
    expect(parseConfig({})).toMatchObject({
      sentrySendDefaultPii: false,
      dataDir: resolve("data"),
      sentryOutboxMax: 1000,
      sentryOutboxMaxBytes: 33_554_432,
    });
  });

  test("are read, DATA_DIR made absolute", () => {
    expect(
      parseConfig({
        SENTRY_SEND_DEFAULT_PII: "true",
        DATA_DIR: "var/brisk",
        SENTRY_OUTBOX_MAX: "0",
        SENTRY_OUTBOX_MAX_BYTES: "65536",
      }),
    ).toMatchObject({
      sentrySendDefaultPii: true,
      dataDir: resolve("var/brisk"),
      sentryOutboxMax: 0,
      sentryOutboxMaxBytes: 65_536,
    });
  });

  test.each([
    ["SENTRY_SEND_DEFAULT_PII", "yes"],
    ["DATA_DIR", "data\0"],
    ["SENTRY_OUTBOX_MAX", "-1"],
    ["SENTRY_OUTBOX_MAX", "1e3"],
    ["SENTRY_OUTBOX_MAX", "100001"],
  ])("%s=%p is refused with an error naming the variable", (variable, value) => {
    const error = errorOf({ [variable]: value });
    expect(error.variable).toBe(variable);
    expect(error.message).toStartWith(`${variable}: `);
  });

  test("a bad one stops the process with one line", async () => {
    const { code, stderr } = await runServer({ SENTRY_OUTBOX_MAX: "lots" });
    expect(code).toBe(1);
    expect(stderr).toBe('brisk: invalid configuration: SENTRY_OUTBOX_MAX: expected a whole number, got "lots"\n');
  });
});
