// Document.tsx: the <html> shell around every page.
import { Links, PageContent } from "brisk";

export function Document() {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <link rel="icon" href="data:," />
        <Links />
      </head>
      <body>
        <PageContent />
      </body>
    </html>
  );
}
