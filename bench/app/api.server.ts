// api.server.ts: the bench app's JSON API: the items page's data.
import { Elysia } from "elysia";
import { itemsLoader } from "./pages/items.server.ts";

export const api = new Elysia({ prefix: "/api" }).get("/items", () => itemsLoader());
