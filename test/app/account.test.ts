// The examples' guarded account area, through the server, on SQLite and on a real PostgreSQL: one middleware on
// /examples/account holds for every kind of request into it (documents, page data whatever levels the client
// says it keeps, the notes form's post with and without JavaScript, a fetcher-style load, the CSV export) for
// a visitor signed out, with an expired session, with a forged cookie or with one signed out elsewhere: a page
// a browser asked for goes to sign-in with `next`, everything else is 401; a signed-in visitor sees and adds
// their own notes, and exports them.
import { afterAll, beforeAll, describe, expect, setSystemTime, test } from "bun:test";
import type { ServedApp } from "brisk/test";
import { BACKENDS, useBackends } from "./backends.ts";
import { sessionCookieOf as cookieOf } from "./session-cookie.ts";

const backends = useBackends("example_account");

afterAll(() => setSystemTime());

const ORIGIN = "http://localhost";
const HTML = { accept: "text/html" };
const DATA = { accept: "application/x-ndjson" };
const FORM = { origin: ORIGIN, "content-type": "application/x-www-form-urlencoded" };
const DAY = 24 * 60 * 60 * 1000;
const notesIn = (html: string) =>
  [.../<ul id="notes">([\s\S]*?)<\/ul>/.exec(html)![1]!.matchAll(/<li>([^<]*)<\/li>/g)].map((m) => m[1]);

describe.each(BACKENDS)("/examples/account on %s", (backend) => {
  let t: ServedApp;
  beforeAll(async () => {
    t = await backends.serve(backend);
  });

  const signIn = async (name: string) =>
    cookieOf(
      await t.request("/examples/session", { method: "POST", headers: FORM, body: `name=${encodeURIComponent(name)}` }),
    );
  const addNote = (cookie: string, text: string, headers: Record<string, string> = {}) =>
    t.request("/examples/account/notes", {
      method: "POST",
      headers: { ...FORM, cookie, ...headers },
      body: `text=${encodeURIComponent(text)}`,
    });

  /** The pages a browser asks for: refused, they send the visitor to sign in and back (`next`), not a 401. */
  const pageVisits: Record<string, string> = {
    "the layout's document": "/examples/account",
    "the notes document": "/examples/account/notes",
    "an unmatched path under the layout": "/examples/account/nothing/here",
  };
  /** How a kind of request is refused to a visitor without a live session. */
  const refusal = (kind: string) => {
    const page = pageVisits[kind];
    return page
      ? { status: 307, location: `/examples/session?next=${encodeURIComponent(page)}` }
      : { status: 401, location: null };
  };

  /** Every request kind into the guarded area, each as a browser (or curl) would send it. */
  const kinds: Array<[string, (cookie: string) => Promise<Response>]> = [
    ["the layout's document", (cookie) => t.request("/examples/account", { headers: { ...HTML, cookie } })],
    ["the notes document", (cookie) => t.request("/examples/account/notes", { headers: { ...HTML, cookie } })],
    ["the notes' page data", (cookie) => t.request("/__data/examples/account/notes", { headers: { ...DATA, cookie } })],
    ...["1", "5", "1e0", "0x1", "Infinity", "1.5", "999"].map(
      (keep): [string, (cookie: string) => Promise<Response>] => [
        `the notes' page data keeping ${keep}`,
        (cookie) => t.request(`/__data/examples/account/notes?_keep=${keep}`, { headers: { ...DATA, cookie } }),
      ],
    ),
    [
      "the notes' page data with %5Fkeep=1",
      (cookie) => t.request("/__data/examples/account/notes?%5Fkeep=1", { headers: { ...DATA, cookie } }),
    ],
    ["the CSV export", (cookie) => t.request("/examples/account/notes.csv", { headers: { cookie } })],
    [
      "the CSV export as page data",
      (cookie) => t.request("/__data/examples/account/notes.csv", { headers: { ...DATA, cookie } }),
    ],
    [
      "an unmatched path under the layout",
      (cookie) => t.request("/examples/account/nothing/here", { headers: { ...HTML, cookie } }),
    ],
  ];

  test("signed in, every kind of request is served; signed out, forged, expired or signed out elsewhere, a page visit goes to sign-in and the rest is 401, with nothing of the account", async () => {
    const cookie = await signIn("Ada");
    expect((await addNote(cookie, "secret plans")).status).toBe(303);
    const forged = cookie.replace(/\.(.)/, (_, c: string) => `.${c === "A" ? "B" : "A"}`);
    const copied = await signIn("Grace");
    await t.request("/examples/session", {
      method: "POST",
      headers: { ...FORM, cookie: copied },
      body: "intent=sign-out",
    });
    for (const [kind, send] of kinds) {
      const served = await send(cookie);
      expect({ kind, status: served.status }).toEqual({ kind, status: kind.startsWith("an unmatched") ? 404 : 200 });
      for (const [who, visitor] of [
        ["signed out", ""],
        ["forged", forged],
        ["signed out elsewhere", copied],
      ]) {
        const res = await send(visitor!);
        const body = await res.text();
        expect({ kind, who, status: res.status, location: res.headers.get("location") }).toEqual({
          kind,
          who,
          ...refusal(kind),
        });
        expect(body).not.toContain("secret plans");
        expect(body).not.toContain("account-name");
      }
    }
    // Expired: the same cookie past the session's 14 days, with the clock moved on.
    setSystemTime(Date.now() + 15 * DAY);
    try {
      for (const [kind, send] of kinds)
        expect({ kind, status: (await send(cookie)).status }).toEqual({ kind, status: refusal(kind).status });
    } finally {
      setSystemTime();
    }
  });

  test("a post to the notes, signed out or forged, as a form or from JavaScript, stores nothing", async () => {
    const cookie = await signIn("Lin");
    const forged = cookie.replace(/\.(.)/, (_, c: string) => `.${c === "A" ? "B" : "A"}`);
    for (const visitor of ["", forged]) {
      expect((await addNote(visitor, "planted")).status).toBe(401);
      const js = await t.request("/__data/examples/account/notes", {
        method: "POST",
        headers: { ...FORM, ...DATA, cookie: visitor },
        body: "text=planted",
      });
      expect(js.status).toBe(401);
    }
    expect(
      notesIn(await (await t.request("/examples/account/notes", { headers: { ...HTML, cookie } })).text()),
    ).toEqual([]);
  });

  test("notes are per name, newest first; an empty one is the form's 422 with what was typed", async () => {
    const ada = await signIn("Ada Notes");
    const bob = await signIn("Bob Notes");
    expect((await addNote(ada, "first")).headers.get("location")).toBe("/examples/account/notes");
    await addNote(ada, "second");
    await addNote(bob, "bob's");
    const page = await (await t.request("/examples/account/notes", { headers: { ...HTML, cookie: ada } })).text();
    expect(page).toContain('<p id="account-name">Signed in as Ada Notes</p>');
    expect(notesIn(page)).toEqual(["second", "first"]);
    const invalid = await addNote(ada, "   ");
    expect(invalid.status).toBe(422);
    expect(await invalid.text()).toContain('class="field-error"');
  });

  test("the CSV export: a header line, then the visitor's notes; a formula-looking note is defused and quoting holds", async () => {
    const cookie = await signIn("Csv Person");
    await addNote(cookie, '=HYPERLINK("x")');
    await addNote(cookie, "plain, with a comma");
    const res = await t.request("/examples/account/notes.csv", { headers: { cookie } });
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    const [header, ...rows] = (await res.text()).trimEnd().split("\r\n");
    expect(header).toBe("id,text");
    expect(rows.map((row) => row.slice(row.indexOf(",") + 1))).toEqual([
      '"plain, with a comma"',
      `"'=HYPERLINK(""x"")"`,
    ]);
  });

  test("the CSV export: a formula after a `;`, tab, comma or line break is defused too, and `;` and tab are quoted", async () => {
    const cookie = await signIn("Csv Locale");
    const notes = [
      "x;=cmd|' /C calc'!A0",
      "a\tb;=2+2",
      "p,+1",
      "line\n@SUM(A1)",
      'q; "=1+1"',
      "semi;colon",
      "tab\there",
      "a-b, c",
    ];
    for (const note of notes) expect((await addNote(cookie, note)).status).toBe(303);
    const res = await t.request("/examples/account/notes.csv", { headers: { cookie } });
    const rows = (await res.text()).trimEnd().split("\r\n").slice(1);
    expect(rows.map((row) => row.slice(row.indexOf(",") + 1))).toEqual([
      '"a-b, c"',
      '"tab\there"',
      '"semi;colon"',
      `"q; ""'=1+1"""`,
      '"line\n\'@SUM(A1)"',
      `"p,'+1"`,
      `"a\tb;'=2+2"`,
      `"x;'=cmd|' /C calc'!A0"`,
    ]);
    // As a spreadsheet whose list separator is `;` or tab may read it: split at every separator whatever the
    // quotes, then the quotes and spaces a cell starts with dropped. No cell then starts a formula.
    const cells = rows
      .join("\n")
      .split(/[,;\t\n]/)
      .map((cell) => cell.replace(/^[ "]*/, ""));
    expect(cells.filter((cell) => /^[=+\-@]/.test(cell))).toEqual([]);
  });
});
