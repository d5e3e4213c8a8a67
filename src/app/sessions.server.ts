// sessions.server.ts: the example app's sessions, kept in its store (brisk/server's sqlSessionStore, opened in
// src/app/store/store.server.ts): who is signed in (`user`) and a notice flashed once. Signing out deletes the
// record, so a copy of the cookie is refused afterwards on every replica.
import { createSessionStorage } from "brisk/server";
import { store } from "./lifecycle.server.ts";

export const sessions = createSessionStorage<{ user: { name: string } }, { notice: string }>({
  // The store opens at the server's start; sessions are read in requests, after it.
  store: {
    read: (id) => store().sessions.read(id),
    create: (id, data, expires) => store().sessions.create(id, data, expires),
    update: (id, data) => store().sessions.update(id, data),
    delete: (id) => store().sessions.delete(id),
  },
});
