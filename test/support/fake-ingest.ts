// fake-ingest.ts (test support): brisk/test's recording stand-in for Sentry's ingest, for the framework's tests
// and the bench (from its module, without the server brisk/test loads).
export { startFakeIngest, type FakeIngest, type ReceivedRequest, type StatusReply } from "../../src/server/testing/fake-ingest.ts";
