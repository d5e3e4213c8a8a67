// parseConfig's block for writes: ACTION_MAX_BYTES, BODY_TIMEOUT_MS, BODY_MIN_RATE, BODY_RATE_GRACE_MS, COOKIE_SECRET, DATA_DIR,
// DATABASE_URL, their defaults and one-line refusals.
import { resolve } from "node:path";
import { describe, expect, test } from "bun:test";
import { parseConfig } from "../../../src/server/config/config.ts";
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
    expect(Object.isFrozen(config.cookieSecrets)).toBe(true);
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
    expect(parseConfig({ COOKIE_SECRET: " ", DATA_DIR: "", DATABASE_URL: "" })).toMatchObject({ cookieSecrets: [], dataDir: resolve("data") });
  });

  test.each(["sqlite://./data/app.db", "sqlite:///srv/app.db", "sqlite://:memory:", "file:app.db", "postgresql://db/brisk", "postgres:///brisk?host=/run/postgresql"])(
    "DATABASE_URL=%s is accepted as given",
    (url) => {
      expect(parseConfig({ DATABASE_URL: url }).databaseUrl).toBe(url);
    },
  );

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

describe("starting with a bad writes variable", () => {
  test.each([
    ["COOKIE_SECRET", "too-short-to-sign", "at least 32"],
    ["DATABASE_URL", "mongodb://db/app", "expected sqlite://… or postgres://…"],
    ["ACTION_MAX_BYTES", "lots", "expected a whole number"],
  ])("%s=%p prints one line naming it and exits 1", async (variable, value, reason) => {
    const { code, stdout, stderr } = await runServer({ [variable]: value });
    expect(code).toBe(1);
    expect(stdout).toBe("");
    expect(stderr.trimEnd().split("\n")).toEqual([expect.stringMatching(new RegExp(`^brisk: invalid configuration: ${variable}: .*${reason}`))]);
  });
});
