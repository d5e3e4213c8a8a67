// Cookies: the defaults on what is set, reading and deleting, signed cookies (tampering, rotation, names), and the secret kept under DATA_DIR.
import { afterAll, describe, expect, test } from "bun:test";
import { createHmac } from "node:crypto";
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ConfigError } from "../../../src/server/config/config.ts";
import { COOKIE_SECRET_FILE, loadCookieSecrets } from "../../../src/server/cookies/cookie-secret.ts";
import { createCookieSigner } from "../../../src/server/cookies/cookie-signer.ts";
import { cookieDefaults, createCookies } from "../../../src/server/cookies/cookies.ts";

const NEW = "new-secret-new-secret-new-secret-0001";
const OLD = "old-secret-old-secret-old-secret-0002";
const OTHER = "someone-elses-secret-someone-elses-03";

/** The Cookie header a browser sends back for these Set-Cookie values. */
const cookieHeaderFrom = (setCookies: string[]) => setCookies.map((line) => line.split(";", 1)[0]).join("; ");

describe("createCookieSigner", () => {
  test("the signature is base64url HMAC-SHA256 of name=value with the first secret", async () => {
    const signer = await createCookieSigner([NEW, OLD]);
    const expected = createHmac("sha256", NEW).update("session=ada").digest("base64url");
    expect(await signer.sign("ada", "session")).toBe(`ada.${expected}`);
  });

  test("a signed value verifies back to the value, dots and all", async () => {
    const signer = await createCookieSigner([NEW]);
    expect(await signer.verify(await signer.sign("a.b.c", "s"), "s")).toBe("a.b.c");
    expect(await signer.verify(await signer.sign("", "s"), "s")).toBe("");
  });

  test("a tampered value, a tampered signature, a truncated one or an unsigned value reads as absent", async () => {
    const signer = await createCookieSigner([NEW]);
    const signed = await signer.sign("user:1", "session");
    const dot = signed.lastIndexOf(".");
    const flip = (s: string, at: number) => s.slice(0, at) + (s[at] === "A" ? "B" : "A") + s.slice(at + 1);
    for (const forged of [
      `user:2${signed.slice(dot)}`,
      flip(signed, dot + 5),
      flip(signed, signed.length - 1),
      signed.slice(0, -1),
      `${signed}A`,
      `${signed}=`,
      signed.replace(".", ""),
      "user:1",
      `user:1.${"A".repeat(43)}`,
    ]) {
      expect({ forged, read: await signer.verify(forged, "session") }).toEqual({ forged, read: undefined });
    }
  });

  test("only the canonical base64url spelling of a signature verifies, not the same bytes in standard base64", async () => {
    const signer = await createCookieSigner([NEW]);
    let signed = "";
    for (let i = 0; !/[-_]/.test(signed.slice(-43)); i++) signed = await signer.sign(`user:${i}`, "session");
    const value = signed.slice(0, -44);
    const respelled = `${value}.${signed.slice(-43).replaceAll("-", "+").replaceAll("_", "/")}`;
    expect(await signer.verify(signed, "session")).toBe(value);
    expect(await signer.verify(respelled, "session")).toBeUndefined();
  });

  test("a value signed for one cookie name does not verify as another", async () => {
    const signer = await createCookieSigner([NEW]);
    expect(await signer.verify(await signer.sign("admin", "theme"), "role")).toBeUndefined();
  });

  test("a value signed for a purpose: HMAC of `purpose name=value`, verifying for that purpose only, never as a plain value", async () => {
    const signer = await createCookieSigner([NEW, OLD]);
    const session = await signer.sign("data", "session", "brisk-session/1");
    expect(session).toBe(
      `data.${createHmac("sha256", NEW).update("brisk-session/1 session=data").digest("base64url")}`,
    );
    expect(await signer.verify(session, "session", "brisk-session/1")).toBe("data");
    expect(await signer.verify(session, "session")).toBeUndefined();
    expect(await signer.verify(session, "session", "brisk-session-id/1")).toBeUndefined();
    expect(await signer.verify(await signer.sign("data", "session"), "session", "brisk-session/1")).toBeUndefined();
    // Rotation holds for purposes too.
    expect(await (await createCookieSigner([OLD])).verify(session, "session", "brisk-session/1")).toBeUndefined();
    expect(
      await signer.verify(
        await (await createCookieSigner([OLD])).sign("data", "session", "brisk-session/1"),
        "session",
        "brisk-session/1",
      ),
    ).toBe("data");
  });

  test("rotation: the first secret signs, every secret verifies, a retired one does not", async () => {
    const before = await createCookieSigner([OLD]);
    const during = await createCookieSigner([NEW, OLD]);
    const after = await createCookieSigner([NEW]);
    const oldCookie = await before.sign("v", "s");
    const newCookie = await during.sign("v", "s");
    expect(await during.verify(oldCookie, "s")).toBe("v");
    expect(await during.verify(newCookie, "s")).toBe("v");
    expect(await before.verify(newCookie, "s")).toBeUndefined();
    expect(await after.verify(oldCookie, "s")).toBeUndefined();
    expect(newCookie).toBe(await after.sign("v", "s"));
  });

  test("a value signed with another site's secret reads as absent; so does a value that is not a string", async () => {
    const signer = await createCookieSigner([NEW, OLD]);
    const foreign = await (await createCookieSigner([OTHER])).sign("v", "s");
    expect(await signer.verify(foreign, "s")).toBeUndefined();
    for (const value of [undefined, null, 42, {}]) expect(await signer.verify(value, "s")).toBeUndefined();
  });

  test("needs at least one secret", () => {
    expect(createCookieSigner([])).rejects.toThrow("at least one secret");
  });
});

describe("createCookies", () => {
  test("reads the request's cookies, percent-decoded; a missing one is undefined", () => {
    const cookies = createCookies("theme=dark; name=Ada%20L.; empty=", { secure: false });
    expect(cookies.get("theme")).toBe("dark");
    expect(cookies.get("name")).toBe("Ada L.");
    expect(cookies.get("empty")).toBe("");
    expect(cookies.get("missing")).toBeUndefined();
    expect(createCookies(null, { secure: false }).get("theme")).toBeUndefined();
  });

  test("nothing set: no Set-Cookie", () => {
    expect(createCookies("a=1", { secure: true }).setCookieHeaders()).toEqual([]);
  });

  test("defaults: HttpOnly, SameSite=Lax, Path=/, and Secure only when asked (production)", () => {
    const dev = createCookies(null, { secure: false });
    dev.set("theme", "dark");
    expect(dev.setCookieHeaders()).toEqual(["theme=dark; Path=/; HttpOnly; SameSite=Lax"]);
    const prod = createCookies(null, { secure: true });
    prod.set("theme", "dark");
    expect(prod.setCookieHeaders()).toEqual(["theme=dark; Path=/; Secure; HttpOnly; SameSite=Lax"]);
    expect(cookieDefaults(true)).toEqual({ httpOnly: true, sameSite: "lax", path: "/", secure: true });
  });

  test("each option overrides its default and leaves the others", () => {
    const cookies = createCookies(null, { secure: true });
    cookies.set("prefs", "a b;c", {
      httpOnly: false,
      sameSite: "strict",
      path: "/account",
      maxAge: 3600,
      domain: "example.com",
    });
    expect(cookies.setCookieHeaders()).toEqual([
      "prefs=a%20b%3Bc; Domain=example.com; Path=/account; Max-Age=3600; Secure; SameSite=Strict",
    ]);
  });

  test("a value set during the request reads back; the last set of a name is the one sent", () => {
    const cookies = createCookies("theme=dark", { secure: false });
    cookies.set("theme", "light");
    cookies.set("theme", "blue");
    expect(cookies.get("theme")).toBe("blue");
    expect(cookies.setCookieHeaders()).toEqual(["theme=blue; Path=/; HttpOnly; SameSite=Lax"]);
  });

  test("delete expires the cookie on its path and reads as absent", () => {
    const cookies = createCookies("theme=dark; session=x", { secure: true });
    cookies.delete("theme");
    cookies.delete("session", { path: "/account", domain: "example.com" });
    expect(cookies.get("theme")).toBeUndefined();
    expect(cookies.setCookieHeaders()).toEqual([
      "theme=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; SameSite=Lax",
      "session=; Domain=example.com; Path=/account; Expires=Thu, 01 Jan 1970 00:00:00 GMT; SameSite=Lax",
    ]);
  });

  test("an invalid cookie name is the app's bug: a TypeError", () => {
    expect(() => createCookies(null, { secure: false }).set("bad name", "v")).toThrow(TypeError);
  });

  test("a signed cookie travels through Set-Cookie and Cookie and reads back", async () => {
    const signer = await createCookieSigner([NEW]);
    const response = createCookies(null, { secure: true, signer });
    await response.setSigned("session", "user:42 Ada", { maxAge: 86_400 });
    const [line] = response.setCookieHeaders();
    expect(line).toMatch(
      /^session=user%3A42%20Ada\.[A-Za-z0-9_-]{43}; Path=\/; Max-Age=86400; Secure; HttpOnly; SameSite=Lax$/,
    );
    const next = createCookies(cookieHeaderFrom([line!]), { secure: true, signer });
    expect(await next.getSigned("session")).toBe("user:42 Ada");
    // The plain reader sees the signed form: only getSigned vouches for it.
    expect(next.get("session")).toStartWith("user:42 Ada.");
  });

  test("a tampered, unsigned or foreign-signed cookie reads as absent through getSigned", async () => {
    const signer = await createCookieSigner([NEW]);
    const response = createCookies(null, { secure: false, signer });
    await response.setSigned("session", "user:42");
    const header = cookieHeaderFrom(response.setCookieHeaders());
    const foreign = await (await createCookieSigner([OTHER])).sign("user:1", "session");
    for (const forged of [
      header.replace("user%3A42", "user%3A1"),
      "session=user%3A42",
      `session=${encodeURIComponent(foreign)}`,
      "session=",
    ]) {
      expect({ forged, read: await createCookies(forged, { secure: false, signer }).getSigned("session") }).toEqual({
        forged,
        read: undefined,
      });
    }
  });

  test("a signed cookie set during the request reads back through getSigned", async () => {
    const signer = await createCookieSigner([NEW]);
    const cookies = createCookies(null, { secure: false, signer });
    await cookies.setSigned("session", "user:7");
    expect(await cookies.getSigned("session")).toBe("user:7");
  });

  test("without a signer, signed cookies are a set-up error: getSigned and setSigned throw", async () => {
    const cookies = createCookies("session=x.y", { secure: false });
    expect(cookies.getSigned("session")).rejects.toThrow("need a signer");
    expect(cookies.setSigned("session", "v")).rejects.toThrow("need a signer");
  });
});

describe("loadCookieSecrets", () => {
  const dirs: string[] = [];
  const tempDir = async () => {
    const dir = await mkdtemp(join(tmpdir(), "brisk-secret-"));
    dirs.push(dir);
    return dir;
  };
  afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

  test("COOKIE_SECRET set: its secrets in order, no warning, nothing written", async () => {
    const dataDir = join(await tempDir(), "data");
    expect(await loadCookieSecrets({ cookieSecrets: [NEW, OLD], dataDir })).toEqual({ secrets: [NEW, OLD] });
    expect(await stat(dataDir).catch(() => "absent")).toBe("absent");
  });

  test("unset: the first start makes the folder and a 0600 secret file, with one warning line", async () => {
    const dataDir = join(await tempDir(), "nested", "data");
    const { secrets, warning } = await loadCookieSecrets({ cookieSecrets: [], dataDir });
    const path = join(dataDir, COOKIE_SECRET_FILE);
    expect(secrets).toHaveLength(1);
    expect(secrets[0]).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await readFile(path, "utf8")).trim()).toBe(secrets[0]!);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect((await stat(dataDir)).mode & 0o777).toBe(0o700);
    expect(warning).toBe(
      `COOKIE_SECRET is unset: generated a cookie secret and kept it in ${path} (mode 0600), so a restart keeps signed cookies valid; several replicas need COOKIE_SECRET set to one shared value`,
    );
    expect(await readdir(dataDir)).toEqual([COOKIE_SECRET_FILE]);
  });

  test("the next start reuses the kept secret, so a cookie signed before the restart still verifies", async () => {
    const dataDir = await tempDir();
    const first = await loadCookieSecrets({ cookieSecrets: [], dataDir });
    const cookie = await (await createCookieSigner(first.secrets)).sign("user:1", "session");
    const second = await loadCookieSecrets({ cookieSecrets: [], dataDir });
    expect(second.secrets).toEqual(first.secrets);
    expect(second.warning).toBe(
      `COOKIE_SECRET is unset: signing cookies with the secret kept in ${join(dataDir, COOKIE_SECRET_FILE)}; several replicas need COOKIE_SECRET set to one shared value`,
    );
    expect(await (await createCookieSigner(second.secrets)).verify(cookie, "session")).toBe("user:1");
  });

  test("two folders get two different secrets", async () => {
    const a = await loadCookieSecrets({ cookieSecrets: [], dataDir: await tempDir() });
    const b = await loadCookieSecrets({ cookieSecrets: [], dataDir: await tempDir() });
    expect(a.secrets[0]).not.toBe(b.secrets[0]!);
  });

  test("processes starting together on one DATA_DIR all get the one secret that was kept", async () => {
    const dataDir = join(await tempDir(), "data");
    const results = await Promise.all(
      Array.from({ length: 8 }, () => loadCookieSecrets({ cookieSecrets: [], dataDir })),
    );
    const kept = (await readFile(join(dataDir, COOKIE_SECRET_FILE), "utf8")).trim();
    for (const { secrets } of results) expect(secrets).toEqual([kept]);
    expect(await readdir(dataDir)).toEqual([COOKIE_SECRET_FILE]);
  });

  test("a kept secret shorter than 32 bytes stops start-up with one line naming DATA_DIR", async () => {
    const dataDir = await tempDir();
    await writeFile(join(dataDir, COOKIE_SECRET_FILE), "short\n");
    const error = await loadCookieSecrets({ cookieSecrets: [], dataDir }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).variable).toBe("DATA_DIR");
    expect((error as ConfigError).message).toBe(
      `DATA_DIR: ${join(dataDir, COOKIE_SECRET_FILE)} holds a cookie secret shorter than 32 bytes; delete it to make a new one; make DATA_DIR a writable folder or set COOKIE_SECRET`,
    );
  });

  test("a DATA_DIR that is a file stops start-up with one line naming DATA_DIR", async () => {
    const dataDir = join(await tempDir(), "not-a-folder");
    await writeFile(dataDir, "");
    const error = await loadCookieSecrets({ cookieSecrets: [], dataDir }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toMatch(
      /^DATA_DIR: cannot read .*not-a-folder\/cookie-secret \(ENOTDIR\); make DATA_DIR a writable folder or set COOKIE_SECRET$/,
    );
  });
});
