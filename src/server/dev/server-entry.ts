// server-entry.ts: development only: what the dev server builds for the server on every save
// (src/server/dev/server-app.ts): the app, and the framework's server to run it.
export { default as app } from "#app";
export { createApp } from "../create-app.ts";
export { startApp } from "../app-start.ts";
