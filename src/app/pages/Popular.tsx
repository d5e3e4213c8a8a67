// Popular.tsx: the guestbook's entry count and its most liked entry, from a page the server keeps until a write.
import { Link, useLoaderData } from "brisk";
import { ExampleFrame } from "./ExampleFrame.tsx";
import type { popularLoader } from "./Popular.server.ts";

function TopEntry() {
  const { top } = useLoaderData<typeof popularLoader>();
  if (!top) return <p className="empty">No entry has a like yet.</p>;
  return (
    <p>
      Most liked:{" "}
      <output id="top-entry">
        <Link href={`/examples/guestbook/${top.id}`}>{top.name}</Link>: {top.message}
      </output>{" "}
      (<output id="top-likes">{top.likes}</output> likes)
    </p>
  );
}

export function Popular() {
  const { count, renderedAt } = useLoaderData<typeof popularLoader>();
  return (
    <ExampleFrame title="Popular">
      <p>
        The server renders this page once and keeps it for 60 seconds under the tag <code>guestbook</code>, page data
        included: every visitor gets that copy. Signing <Link href="/examples/guestbook">the guestbook</Link> or liking
        an entry calls <code>revalidateTag("guestbook")</code>, here and on every instance sharing the database, and the
        next visit renders it afresh.
      </p>
      <p>
        Entries in the guestbook: <output id="entry-count">{count}</output>.
      </p>
      <TopEntry />
      <p>
        Rendered at <output id="rendered-at">{renderedAt}</output>.
      </p>
    </ExampleFrame>
  );
}
