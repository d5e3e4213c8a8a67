// action-data.ts: what an action returns for the page to show, with the status of the response.
// `return data({ errors, values }, { status: 422 })`: the page renders again with that action data (the form
// shows the errors and keeps what the visitor typed) and answers 422. A plain return value is 200.

export class ActionData<T = unknown> {
  constructor(
    readonly value: T,
    readonly status: number,
  ) {}
}

export function data<T>(value: T, init: { status?: number } = {}): ActionData<T> {
  return new ActionData(value, init.status ?? 200);
}

/** An action's return, as the page gets it: the value without the wrapper, and the status to respond with. */
export function actionResult(returned: unknown): { value: unknown; status: number } {
  return returned instanceof ActionData
    ? { value: returned.value, status: returned.status }
    : { value: returned ?? null, status: 200 };
}

/** Each of an action's possible returns, unwrapped (a conditional on a bare type spreads over a union). */
type Unwrapped<R> = R extends ActionData<infer T> ? T : R;

/** The value type an action hands the page, for `useActionData<typeof action>()`. */
export type ActionValue<A extends (ctx: never) => unknown> = Unwrapped<Awaited<ReturnType<A>>>;
