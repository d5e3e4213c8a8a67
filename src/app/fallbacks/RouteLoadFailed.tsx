// RouteLoadFailed.tsx: shown when a page's code or stylesheet could not be loaded, even after a reload.

export function RouteLoadFailed() {
  return (
    <main className="fallback route-load-failed" role="alert">
      <title>Page could not be loaded</title>
      <h1>This page could not be loaded</h1>
      <p>
        Part of the page did not arrive. This can happen on a weak connection or just after a new version was published.
      </p>
      <p>
        <button type="button" onClick={() => location.reload()}>
          Reload the page
        </button>
      </p>
    </main>
  );
}
