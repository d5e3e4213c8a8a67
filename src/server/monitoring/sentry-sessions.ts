// sentry-sessions.ts: release health's request sessions, counted per minute and sent as the SDK's own aggregates.
import type * as Sentry from "@sentry/bun";

/** A request's session, on its isolation scope as `requestSession`: the client marks it when an error is captured there. */
export interface RequestSession {
  status: "ok" | "errored" | "crashed";
}

const COUNTED = { ok: "exited", errored: "errored", crashed: "crashed" } as const;
type Counts = Record<(typeof COUNTED)[keyof typeof COUNTED], number>;

/**
 * What `recordRequestSession` of @sentry/core does for each request, without its per-request cost: that reads the
 * clears the scope's session, emits a hook no one listens to, and formats a date for each request's minute. Here a
 * request's session is counted in its minute when it ends; the minutes go to Sentry after `flushMs`, or on the
 * client's flush, as the SDK sends them.
 */
export function requestSessions(client: Sentry.NodeClient, flushMs: number): { count(session: RequestSession): void } {
  let minutes: Map<number, Counts> | undefined;
  const send = () => {
    const sent = minutes;
    minutes = undefined;
    if (!sent) return;
    const aggregates = [...sent].map(([minute, counts]) => ({
      started: new Date(minute * 60_000).toISOString(),
      ...counts,
    }));
    client.sendSession({ aggregates });
  };
  client.on("flush", send);
  return {
    count(session) {
      if (!minutes) {
        minutes = new Map();
        setTimeout(send, flushMs).unref();
      }
      const minute = Math.floor(Date.now() / 60_000);
      let counts = minutes.get(minute);
      if (!counts) minutes.set(minute, (counts = { exited: 0, errored: 0, crashed: 0 }));
      counts[COUNTED[session.status]]++;
    },
  };
}
