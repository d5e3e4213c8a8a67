// route-data.tsx (type test, checked by `bun run typecheck`, never run): a route object from route() carries its
// loader's type, so a page below it reads the layout's data by the object, typed, with no id and no undefined.
import { route, useRouteData, type LoaderContext, type RouteDefinition } from "brisk";
import { same } from "./same.ts";

const Layout = () => null;

async function projectLoader({ params }: LoaderContext<{ id: string }>) {
  return { id: params.id, name: "Brisk", opened: new Date(0), issues: Promise.resolve([1, 2]) };
}

export const projectRoute = route("/projects/:id", {
  component: Layout,
  loader: projectLoader,
  children: (child) => [
    child("issues/:issue", {
      component: Issue,
      loader: ({ params }) => ({ issue: Number(params.issue), project: params.id }),
    }),
  ],
});
const inline = route("/inline/:slug", { component: Layout, loader: ({ params }) => ({ slug: params.slug }) });
const noLoader = route("/about", { component: Layout });

function Issue() {
  const project = useRouteData(projectRoute);
  same<typeof project, { id: string; name: string; opened: Date; issues: Promise<number[]> }>(true);
  // Never undefined: the route is above this page.
  return <h1>{project.name.toUpperCase()}</h1>;
}

same<ReturnType<typeof useRouteData<typeof inline>>, { slug: string }>(true);
// Without a loader, nothing to read.
same<ReturnType<typeof useRouteData<typeof noLoader>>, unknown>(true);
// A plain object of the table: no loader type to carry.
same<ReturnType<typeof useRouteData<RouteDefinition>>, unknown>(true);

// A route object is still a route of the table.
export const table: readonly RouteDefinition[] = [projectRoute, inline, noLoader];

// @ts-expect-error: the inline loader asks for a param its pattern does not give
route("/inline/:slug", { component: Layout, loader: ({ params }) => params.nope });
