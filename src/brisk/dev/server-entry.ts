// server-entry.ts: development only: what the dev server builds for the server on every save
// (src/brisk/dev/server-app.ts): the app, and the framework's server to run it.
export { default as app } from "#app";
export { createApp } from "../server/app.ts";
export { startApp } from "../server/app-start.ts";
