// server.server.ts: the bench app's server side: the guestbook's store, opened under DATA_DIR before the
// server listens and closed after the last request.
import type { AppServer } from "brisk/server";
import { openGuestbook, type GuestbookStore } from "./guestbook/store.server.ts";

let current: GuestbookStore | undefined;

export function guestbook(): GuestbookStore {
  if (!current) throw new Error("the guestbook is not open: the app's server.start() has not run");
  return current;
}

export const server: AppServer = {
  async start({ config }) {
    await current?.close();
    current = await openGuestbook(config.dataDir);
  },
  async stop() {
    await current?.close();
    current = undefined;
  },
};
