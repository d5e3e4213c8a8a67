// The search example through the server in-process: /examples/search's schema parses `q`, `page` and `sort` from
// the URL (an invalid page reads as page 1, an unknown sort is a 400 naming it), on the document and in page data,
// and its pager links are the same URL with the page changed.
import { beforeAll, describe, expect, test } from "bun:test";
import { serveApp, type ServedApp } from "brisk/test";

let t: ServedApp;
const DATA = { headers: { accept: "application/x-ndjson" } };

beforeAll(async () => {
  t = await serveApp();
});

const pageIn = (html: string) => /<span id="page">(\d+)<\/span>/.exec(html)?.[1];
const resultsIn = (html: string) =>
  [...(/<ol id="results"[^>]*>([\s\S]*?)<\/ol>/.exec(html)?.[1] ?? "").matchAll(/<li>([^<]*)<\/li>/g)].map((m) => m[1]);
const hrefOf = (html: string, rel: string) =>
  new RegExp(`<a rel="${rel}" href="([^"]*)"`).exec(html)?.[1]?.replaceAll("&amp;", "&");
const pageData = async (path: string) => {
  const res = await t.request(`/__data${path}`, DATA);
  return { status: res.status, head: JSON.parse((await res.text()).split("\n")[0]!) };
};

describe("the document", () => {
  test("page 2 of a search: its results, and pager links with the page changed and the query kept", async () => {
    const res = await t.request("/examples/search?q=lamp&page=2");
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(pageIn(html)).toBe("2");
    expect(resultsIn(html)).toEqual([]);
    const all = await (await t.request("/examples/search?page=2")).text();
    expect(resultsIn(all)).toEqual(["Bookshelf", "Floor lamp", "Side table", "Dining chair", "Coffee table"]);
    expect(hrefOf(all, "prev")).toBe("/examples/search?page=1");
    expect(hrefOf(all, "next")).toBe("/examples/search?page=3");
  });

  test("newest first, with the sort kept by the pager", async () => {
    const html = await (await t.request("/examples/search?sort=new")).text();
    expect(resultsIn(html)).toEqual(["Footstool", "Pendant lamp", "Standing desk", "Bar stool", "Wall shelf"]);
    expect(hrefOf(html, "next")).toBe("/examples/search?sort=new&page=2");
    expect(hrefOf(html, "prev")).toBeUndefined();
  });

  test("?page=abc and ?page=0 are page 1, not an error", async () => {
    for (const bad of ["abc", "0"]) {
      const res = await t.request(`/examples/search?q=lamp&page=${bad}`);
      expect(res.status).toBe(200);
      const html = await res.text();
      expect(pageIn(html)).toBe("1");
      expect(resultsIn(html)).toEqual(["Desk lamp", "Reading lamp", "Floor lamp", "Pendant lamp"]);
    }
  });

  test("?sort=bogus is a 400 that names sort and what it takes", async () => {
    const res = await t.request("/examples/search?q=lamp&sort=bogus");
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain("<p>sort: expected &quot;new&quot; or &quot;old&quot;</p>");
    expect(html).toContain('<meta name="robots" content="noindex"/>');
  });
});

describe("page data", () => {
  test("?page=abc: 200, the parse with page 1", async () => {
    const { status, head } = await pageData("/examples/search?q=lamp&page=abc");
    expect(status).toBe(200);
    expect(head.levels[0].query).toEqual({ q: "lamp", page: 1 });
  });

  test("?sort=bogus: 400, the outcome with the message naming sort", async () => {
    const { status, head } = await pageData("/examples/search?sort=bogus");
    expect(status).toBe(400);
    expect(head.outcome).toEqual({ kind: "bad-request", status: 400, message: 'sort: expected "new" or "old"' });
  });
});
