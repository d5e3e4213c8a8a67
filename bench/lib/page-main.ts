// page-main.ts: a page's own markup, for proof that two servers answered the same page.

const TIMESTAMPS = /\d{4}-\d\d-\d\dT[\d:.]+Z/g;
const extractMain = (html: string) => /<main[\s\S]*?<\/main>/.exec(html)?.[0];

/** The page's `<main>`, timestamps aside; undefined when it has none. */
export function mainOf(html: string): string | undefined {
  return extractMain(html)?.replace(TIMESTAMPS, "");
}

/**
 * The `<main>` of a page whose boundaries were streamed after it (a shell's holes), as the browser shows it once
 * React's script has put each one's content (`<div hidden id="S:n">`) in place of its fallback (after `<template
 * id="B:n">`), timestamps aside: what a page rendered whole has in its `<main>`. For the bench's own pages, whose
 * holes hold no <div> and whose fallbacks no boundary.
 */
export function placedMainOf(html: string): string | undefined {
  const content = new Map(
    [...html.matchAll(/<div hidden id="S:(\d+)">([\s\S]*?)<\/div><script/g)].map(([, id, inner]) => [id, inner]),
  );
  return extractMain(html)
    ?.replace(
      /<!--\$\?--><template id="B:(\d+)"><\/template>[\s\S]*?<!--\/\$-->/g,
      (_, id: string) => `<!--$-->${content.get(id) ?? "(not streamed)"}<!--/$-->`,
    )
    .replace(TIMESTAMPS, "");
}
