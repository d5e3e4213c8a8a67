// lifecycle.server.ts: the example app's server side: its store, opened before the server listens and closed
// after the last request. Loaders, actions and API routes reach it through store().
import type { AppServer } from "brisk/server";
import { openStore, StoreUnavailableError, type Store } from "./store/store.server.ts";

let current: Store | undefined;

export function store(): Store {
  if (!current) throw new Error("the example store is not open: the app's server.start() has not run");
  return current;
}

export const server: AppServer = {
  async start({ config, log }) {
    // Started again (a test serving the app twice): the new configuration's store replaces the old one.
    await current?.close();
    current = openStore(config);
    try {
      await current.ready();
      log({ level: "info", msg: "store ready", store: current.location });
    } catch (error) {
      if (!(error instanceof StoreUnavailableError)) throw error;
      // The server still starts: pages that need the store answer 500 with a digest until it is back, and
      // the first request after that sets the schema up.
      log({ level: "error", msg: error.message, store: current.location });
    }
  },
  async stop() {
    await current?.close();
    current = undefined;
  },
};
