// page-sentry.ts (test support): a page's Sentry, waited on as a test needs it: started, and all it holds sent,
// so that what the fake ingest has then is all the page will send.
import type { Page } from "playwright-core";

/** What the page functions below read of Sentry's global carrier (window.__SENTRY__, one entry per SDK version). */
interface Client {
  getIntegrationByName(name: string): unknown;
  flush(timeoutMs: number): Promise<boolean>;
}
interface Sdk {
  stack?: { getScope(): { getClient(): Client | undefined } };
}
interface Carrier {
  version: string;
  [sdkVersion: string]: Sdk | string;
}

/**
 * Resolves once the page's Sentry has started (its last step adds the global handlers, and the reports Brisk
 * held until then go to it at once) and every event and envelope it has is sent and answered: through the
 * tunnel, which answers once the ingest has it. Fails if the page has no Sentry by `timeoutMs`.
 */
export async function pageSentrySent(page: Page, timeoutMs = 10_000): Promise<void> {
  await page.waitForFunction(
    () => {
      const carrier = (window as unknown as { __SENTRY__?: Carrier }).__SENTRY__;
      const client = (carrier?.[carrier.version] as Sdk | undefined)?.stack?.getScope().getClient();
      return client?.getIntegrationByName("GlobalHandlers") !== undefined;
    },
    null,
    { timeout: timeoutMs },
  );
  const flushed = await page.evaluate((ms) => {
    const carrier = (window as unknown as { __SENTRY__: Carrier }).__SENTRY__;
    return (carrier[carrier.version] as Sdk).stack!.getScope().getClient()!.flush(ms);
  }, timeoutMs);
  if (!flushed) throw new Error(`the page's Sentry still had envelopes to send after ${timeoutMs} ms`);
}
