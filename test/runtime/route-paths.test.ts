// href(): a pattern's params put in as a browser would send them, and a query when given; the types of typed paths
// are tested in test/types/route-paths.tsx and test/app/typed-paths.types.tsx.
import { expect, test } from "bun:test";
import { href } from "brisk";

test("params are put in percent-encoded, a splat's slashes kept, an optional one left out when absent", () => {
  expect(href("/items/:id", { id: "a b/c?" })).toBe("/items/a%20b%2Fc%3F");
  expect(href("/files/*", { "*": "docs/read me.md" })).toBe("/files/docs/read%20me.md");
  expect(href("/archive/:year/:month?", { year: "2026" })).toBe("/archive/2026");
  expect(href("/archive/:year/:month?", { year: "2026", month: "11" })).toBe("/archive/2026/11");
  expect(href("/videos/:file.mp4", { file: "intro" })).toBe("/videos/intro.mp4");
  expect(href("/")).toBe("/");
  expect(href("/:lang?", {})).toBe("/");
});

test("a query from fields or params, encoded; none when empty", () => {
  expect(href("/sign-in", {}, { next: "/notes?page=2" })).toBe("/sign-in?next=%2Fnotes%3Fpage%3D2");
  expect(
    href(
      "/items/:id",
      { id: "1" },
      new URLSearchParams([
        ["tag", "a"],
        ["tag", "b"],
      ]),
    ),
  ).toBe("/items/1?tag=a&tag=b");
  expect(href("/items/:id", { id: "1" }, {})).toBe("/items/1");
});

test("a required param that is not given throws, naming it", () => {
  expect(() => href("/items/:id", {} as { id: string })).toThrow('href("/items/:id"): no value for the param "id"');
});
