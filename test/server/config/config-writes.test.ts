// parseConfig's block for writes: ACTION_MAX_BYTES, BODY_TIMEOUT_MS, COOKIE_SECRET, COOKIE_SECURE, DATA_DIR, DATABASE_URL,
// their defaults and one-line refusals; and the start-up warning for Secure cookies over plain HTTP.
import { resolve } from "node:path";
import { describe, expect, test } from "bun:test";
import { parseConfig } from "../../../src/server/config/config.ts";
import { plainHttpWarning } from "../../../src/server/startup-config.ts";
import { configErrorOf as errorOf, runServer } from "../../support/config.ts";
const SECRET_A = "a".repeat(32);
const SECRET_B = "ünïcödé-counts-bytes-not-chars!"; // 31 characters, 35 bytes: the limit counts bytes

describe("parseConfig: writes", () => {
  test("an empty environment gives the documented defaults", () => {
    const config = parseConfig({});
    expect(config.actionMaxBytes).toBe(1_048_576);
    expect(config).toMatchObject({ bodyTimeoutMs: 60_000, bodyMinRate: 4096, bodyRateGraceMs: 2_000 });
    expect(config.cookieSecrets).toEqual([]);
    expect(config.dataDir).toBe(resolve("data"));
    expect(config.databaseUrl).toBeUndefined();
    expect(config.cookieSecure).toBe(true);
    expect(Object.isFrozen(config.cookieSecrets)).toBe(true);
  });

  test("COOKIE_SECURE: on in production, off in development, either when set", () => {
    expect(parseConfig({ NODE_ENV: "development" }).cookieSecure).toBe(false);
    expect(parseConfig({ COOKIE_SECURE: "false" }).cookieSecure).toBe(false);
    expect(parseConfig({ COOKIE_SECURE: "0" }).cookieSecure).toBe(false);
    expect(parseConfig({ NODE_ENV: "development", COOKIE_SECURE: "true" }).cookieSecure).toBe(true);
    expect(parseConfig({ COOKIE_SECURE: " " }).cookieSecure).toBe(true);
  });

  test("reads every variable", () => {
    const config = parseConfig({
      ACTION_MAX_BYTES: "65536",
      BODY_TIMEOUT_MS: "5000",
      BODY_MIN_RATE: "0",
      BODY_RATE_GRACE_MS: "500",
      COOKIE_SECRET: ` ${SECRET_A} , ${SECRET_B} `,
      DATA_DIR: "/var/lib/brisk",
      DATABASE_URL: "postgres://brisk:pw@db:5432/brisk",
    });
    expect(config).toMatchObject({
      actionMaxBytes: 65_536,
      bodyTimeoutMs: 5_000,
      bodyMinRate: 0,
      bodyRateGraceMs: 500,
      cookieSecrets: [SECRET_A, SECRET_B],
      dataDir: "/var/lib/brisk",
      databaseUrl: "postgres://brisk:pw@db:5432/brisk",
    });
  });

  test("an empty COOKIE_SECRET, DATA_DIR or DATABASE_URL is the same as unset", () => {
    expect(parseConfig({ COOKIE_SECRET: " ", DATA_DIR: "", DATABASE_URL: "" })).toMatchObject({
      cookieSecrets: [],
      dataDir: resolve("data"),
    });
  });

  test.each([
    "sqlite://./data/app.db",
    "sqlite:///srv/app.db",
    "sqlite://:memory:",
    "file:app.db",
    "postgresql://db/brisk",
    "postgres:///brisk?host=/run/postgresql",
  ])("DATABASE_URL=%s is accepted as given", (url) => {
    expect(parseConfig({ DATABASE_URL: url }).databaseUrl).toBe(url);
  });

  test.each([
    ["ACTION_MAX_BYTES", "1MB", "expected a whole number"],
    ["ACTION_MAX_BYTES", "100", "must be between 1024"],
    ["BODY_MIN_RATE", "4 KiB", "expected a whole number"],
    ["BODY_RATE_GRACE_MS", "0", "must be between 100"],
    ["COOKIE_SECRET", "short", "the secret is 5 bytes; each must be at least 32"],
    ["COOKIE_SECRET", `${SECRET_A},tiny`, "secret 2 of 2 is 4 bytes"],
    ["COOKIE_SECRET", `${SECRET_A},,${SECRET_A}`, "secret 2 of 3 is 0 bytes"],
    ["DATABASE_URL", "mysql://root:hunter2@db/app", "expected sqlite://… or postgres://…, got a mysql: URL"],
    ["DATABASE_URL", "./app.db", "got no URL scheme"],
    ["COOKIE_SECURE", "no", "expected true or false"],
    ["DATABASE_URL", "postgres://brisk:hunter2@db:99999/app", "not a valid postgres:// URL"],
  ])("%s=%p is refused with one line naming the variable", (variable, value, reason) => {
    const error = errorOf({ [variable]: value });
    expect(error.variable).toBe(variable);
    expect(error.message).toStartWith(`${variable}: `);
    expect(error.message).toContain(reason);
    expect(error.message).not.toContain("\n");
  });

  test("a refused value never echoes a secret or a password", () => {
    expect(errorOf({ COOKIE_SECRET: `${SECRET_A},tiny-secret` }).message).not.toMatch(/aaaa|tiny-secret/);
    expect(errorOf({ DATABASE_URL: "mysql://root:hunter2@db/app" }).message).not.toContain("hunter2");
    expect(errorOf({ DATABASE_URL: "postgres://root:hunter2@db:99999/app" }).message).not.toContain("hunter2");
  });
});

describe("plainHttpWarning: Secure cookies a browser reaching the server over plain HTTP would drop", () => {
  const warning = (env: Record<string, string>) => plainHttpWarning(parseConfig(env));

  test("production on an address other machines reach, no proxy: one line saying so and what to set", () => {
    for (const host of ["0.0.0.0", "::", "192.0.2.2", "staging.lan"]) {
      const line = warning({ HOST: host, PORT: "3500" });
      expect(line).toContain(`plain HTTP on ${host}:3500`);
      expect(line).toContain("Secure");
      expect(line).toContain("TRUST_PROXY=true");
      expect(line).toContain("COOKIE_SECURE=false");
      expect(line).not.toContain("\n");
    }
  });

  test("none on loopback, behind a proxy (TRUST_PROXY), with COOKIE_SECURE=false, or in development", () => {
    expect(warning({ HOST: "127.0.0.1" })).toBeUndefined();
    expect(warning({ HOST: "localhost" })).toBeUndefined();
    expect(warning({ HOST: "::1" })).toBeUndefined();
    expect(warning({ HOST: "0.0.0.0", TRUST_PROXY: "true" })).toBeUndefined();
    expect(warning({ HOST: "0.0.0.0", COOKIE_SECURE: "false" })).toBeUndefined();
    expect(warning({ HOST: "0.0.0.0", NODE_ENV: "development" })).toBeUndefined();
  });
});

describe("starting with a bad writes variable", () => {
  test.each([
    ["COOKIE_SECRET", "too-short-to-sign", "at least 32"],
    ["DATABASE_URL", "mongodb://db/app", "expected sqlite://… or postgres://…"],
    ["ACTION_MAX_BYTES", "lots", "expected a whole number"],
  ])("%s=%p prints one line naming it and exits 1", async (variable, value, reason) => {
    const { code, stdout, stderr } = await runServer({ [variable]: value });
    expect(code).toBe(1);
    expect(stdout).toBe("");
    expect(stderr.trimEnd().split("\n")).toEqual([
      expect.stringMatching(new RegExp(`^brisk: invalid configuration: ${variable}: .*${reason}`)),
    ]);
  });
});
