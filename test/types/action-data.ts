// action-data.ts (type test, checked by `bun run typecheck`, never run): useActionData<typeof action> gives
// each value the action can hand the page, `data(…)`'s unwrapped, or undefined before any post.
import { data, redirect, useActionData, type ActionContext, type RouteDefinition } from "brisk";

async function addNote({ body, params }: ActionContext<{ id: string }>) {
  const note = body.kind === "form" ? String(body.form.get("note") ?? "") : "";
  if (note === "") return data({ error: "A note is 1 to 500 characters", note }, { status: 422 });
  if (params.id === "0") return { saved: false as const };
  redirect(`/orders/${params.id}`);
}

export const routes: RouteDefinition[] = [{ path: "/orders/:id", component: Note, action: addNote }];

function Note() {
  const answer = useActionData<typeof addNote>();
  // @ts-expect-error: nothing was posted yet on a first render
  const first: string = answer.note;
  if (answer === undefined) return first;
  if ("error" in answer) {
    const error: string = answer.error;
    const note: string = answer.note;
    // @ts-expect-error: data()'s wrapper never reaches the page
    answer.status;
    return error + note;
  }
  const saved: false = answer.saved;
  return String(saved);
}
