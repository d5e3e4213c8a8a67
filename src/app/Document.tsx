// Document.tsx: the <html> shell around every page, rendered by the server and hydrated whole.
// Brisk's <Links /> and <PageContent /> carry the framework's part; the rest is the app's to change.
import { Links, PageContent } from "brisk";

export function Document() {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <link rel="icon" href="/favicon.ico" />
        <Links />
      </head>
      <body>
        <PageContent />
      </body>
    </html>
  );
}
