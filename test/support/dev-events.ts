// dev-events.ts (test support): the dev server's event stream (/__dev/events) read as an open page hears it: the
// text so far, the states its `data:` lines announce, and a pattern for "this many have arrived".
import type { DevState } from "../../src/server/dev/dev-page.ts";

/** Reads server-sent event text until `until` matches what has arrived. */
export async function readEvents(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  until: RegExp,
  sofar = "",
): Promise<string> {
  const decoder = new TextDecoder();
  while (!until.test(sofar)) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`the event stream ended after ${JSON.stringify(sofar)}`);
    sofar += decoder.decode(value, { stream: true });
  }
  return sofar;
}

/** The states the stream's `data:` lines carry, in order. */
export const states = (text: string) => [...text.matchAll(/^data: (.*)$/gm)].map((m) => JSON.parse(m[1]!) as DevState);

/** Until `count` states have arrived. */
export const received = (count: number) => new RegExp(`(data: .*\\n\\n[^]*){${count}}`);
