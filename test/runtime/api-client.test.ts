// brisk's apiClient on the server: made at a module's top level it is harmless, and a call while a page renders
// rejects before any fetch, saying what to do instead (the browser side: test/app/api-client-browser.test.ts).
import { expect, test } from "bun:test";
import { apiClient } from "brisk";
import type { api } from "../fixtures/app/api.server.ts";

test("a call on the server rejects with apiClient's own error, not a fetch's failure", async () => {
  const client = apiClient<typeof api>();
  await expect(client.api.notes.get()).rejects.toThrow(
    "apiClient: /api/notes was called on the server; call the API from an effect or an event handler",
  );
  await expect(client.api.notes.post({ text: "x" })).rejects.toThrow("apiClient: /api/notes was called on the server");
});
