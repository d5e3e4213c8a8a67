// route-params.ts (type test, checked by `bun run typecheck`, never run): route() types a loader's and an action's
// params from the route's pattern, named as regexparam names them; a loader asking for another name fails.
import { route, type LoaderContext, type PathParams, type RouteDefinition } from "brisk";
import { same } from "./same.ts";

same<PathParams<"/u/:name">, { name: string }>(true);
same<PathParams<"/shop/:shop/items/:id">, { shop: string; id: string }>(true);
same<PathParams<"/archive/:year/:month?">, { year: string; month?: string }>(true);
same<PathParams<"/videos/:file.mp4">, { file: string }>(true);
same<PathParams<"/files/*">, { "*": string }>(true);
same<PathParams<"/files/*?">, { "*"?: string }>(true);
same<PathParams<"/about">, {}>(true);
same<PathParams<string>, Record<string, string>>(true);
// @ts-expect-error: an optional param may be absent
same<PathParams<"/archive/:year/:month?">, { year: string; month: string }>(true);

const Page = () => null;

function userLoader({ params }: LoaderContext<{ name: string }>) {
  return { name: params.name };
}

export const user: RouteDefinition = route("/u/:name", { component: Page, loader: userLoader });

export const misspelt = route("/u/:name", {
  component: Page,
  // @ts-expect-error: the pattern names `name`, not `nme`
  loader: ({ params }: LoaderContext<{ nme: string }>) => params.nme,
});

export const inline = route("/u/:name", {
  component: Page,
  loader: ({ params }) => {
    // @ts-expect-error: no such param
    params.nme;
    return params.name.toUpperCase();
  },
  action: ({ params, body }) => (body.kind === "form" ? `${params.name}:${body.form.get("x")}` : params.name),
});

export const optional = route("/archive/:year/:month?", {
  component: Page,
  loader: ({ params }) => {
    const year: string = params.year;
    // @ts-expect-error: `:month?` may be absent
    const month: string = params.month;
    return year + month;
  },
});

export const wildcard = route("/files/*", { component: Page, loader: ({ params }) => params["*"].split("/") });

// Children declared through `child` see their parent's params too; an index child its parent's.
export const shop = route("/shop/:shop", {
  component: Page,
  loader: ({ params }) => params.shop,
  children: (child) => [
    child.index({ component: Page, loader: ({ params }) => params.shop }),
    child("items/:id", { component: Page, loader: ({ params }) => `${params.shop}/${params.id}` }),
    child("/shop/:shop/sale", { component: Page, loader: ({ params }) => params.shop }),
    child("c/:category", {
      component: Page,
      children: (grandchild) => [
        grandchild(":id", { component: Page, loader: ({ params }) => params.shop + params.category + params.id }),
      ],
    }),
    child("items/:id", {
      component: Page,
      // @ts-expect-error: `items/:id` under `/shop/:shop` gives no `slug`
      loader: (ctx: LoaderContext<{ shop: string; slug: string }>) => ctx.params.slug,
    }),
  ],
});

// A child declared on its own with route() sees its own pattern only: the parent is not known to it.
export const alone = route("/shop/:shop", {
  component: Page,
  children: [
    route("items/:id", {
      component: Page,
      loader: ({ params }) => {
        // @ts-expect-error: the parent's param is there at run time, but this route's types cannot see it
        params.shop;
        return params.id;
      },
    }),
  ],
});

export const table: RouteDefinition[] = [user, inline, optional, wildcard, shop, alone];
