// server.server.ts: the bench app's server side: the guestbook's store under DATA_DIR, opened on first use and
// closed after the last request. Not at start: the build starts the app to prerender the home page, which
// reads no store, and must leave no database behind (in the checkout's ./data, say).
import type { AppServer } from "brisk/server";
import { openGuestbook, type GuestbookStore } from "./guestbook/store.server.ts";

let dataDir: string | undefined;
let opened: Promise<GuestbookStore> | undefined;

export function guestbook(): Promise<GuestbookStore> {
  if (dataDir === undefined) throw new Error("the guestbook has no DATA_DIR: the app's server.start() has not run");
  return (opened ??= openGuestbook(dataDir));
}

async function close(): Promise<void> {
  const closing = opened;
  opened = undefined;
  await (await closing)?.close();
}

export const server: AppServer = {
  async start({ config }) {
    // Started again (a second server in one process): the new configuration's store replaces the old one.
    await close();
    dataDir = config.dataDir;
  },
  stop: close,
};
