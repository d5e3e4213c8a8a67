// index.ts: `brisk/test`, what an app's own tests use: the app served in-process or on a port (its client
// built once per test process, its own server.start() run, its Sentry on request), a typed client for its API, a
// fake Sentry ingest that records what reaches it, a throwaway PostgreSQL, Chromium, and a component rendered
// inside the app for a DOM test.

export { serveApp, listenApp, type ServeOptions, type ServedApp, type ListeningApp } from "./serve.ts";
export { apiClientFor } from "./api-client.ts";
export { logFor } from "./logs.ts";
export { startPostgres, type Postgres } from "./postgres.ts";
export { freePort } from "./free-port.ts";
export { startReplicas, type Replicas } from "./replicas.ts";
export { waitFor, type WaitingFor } from "./wait-for.ts";
export { startFakeIngest, type FakeIngest, type ReceivedRequest, type StatusReply } from "./fake-ingest.ts";
export { launchBrowser, watchPage, hydrated, type PageWatch } from "./browser.ts";
export { renderInApp, type RenderInAppOptions, type RenderedInApp } from "./dom.tsx";
