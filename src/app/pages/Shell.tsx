// Shell.tsx: partial prerendering. Everything here but the greeting is the shell, rendered once when the server
// starts; the greeting reads loader data (the session), so its <Suspense> is the hole rendered per request.
import { Suspense } from "react";
import { Link, useLoaderData } from "brisk";
import { ExampleFrame } from "./ExampleFrame.tsx";
import type { shellLoader } from "./Shell.server.ts";

/** The hole: the only component of the page that reads the request's data. */
function Greeting() {
  const { name } = useLoaderData<typeof shellLoader>();
  return (
    <p className="greeting">
      Hello, <output id="hello">{name ?? "nobody"}</output>.{" "}
      {name ? null : <Link href="/examples/session">Sign in</Link>}
    </p>
  );
}

/** What a request for this page costs, step by step: the static part of the page, about as long as a real one. */
const STEPS: ReadonlyArray<readonly [string, string]> = [
  [
    "Middleware and loaders",
    "They run as for any page, before a byte is sent: a redirect, a not-found or an error answers with its own status and page, and the shell is never sent.",
  ],
  [
    "The shell",
    "The bytes React prerendered when the server started, kept in memory, copied with this response's CSP nonce written into its places. Nothing of the app renders for them.",
  ],
  [
    "The boot script",
    "This request's page data and nonce, which the browser hydrates from: it cannot be part of the shell, which is the same for every visitor.",
  ],
  [
    "The holes",
    "React's resume renders only the Suspense boundaries whose components read loader data, with this request's data, and streams them into their places.",
  ],
  [
    "Errors in a hole",
    "They behave as a streamed section's: the error is reported with a digest, the status stays 200 and the browser shows the route's error page with that digest.",
  ],
];

const FACTS: readonly string[] = [
  "A shell route's path has no parameters: the shell would have to be rendered for each of them.",
  "A request with a search renders the page whole: the shell was rendered without one.",
  "A form post renders the page whole, with the action's data.",
  "Page data for a client navigation is the same as for any page: only the document has a shell.",
  "A component outside every Suspense that reads loader data stops the server's start, naming the route.",
  "A development server renders every page: the code behind the shell changes while you work.",
  "Streamed loader values are settled by scripts the shell has no place for: such a page renders whole.",
  "The shell's bytes are the same for every visitor but the nonce, which is new on every response.",
  "Without JavaScript the holes still arrive, after the shell, where React streamed them.",
  "A stylesheet the page inlines is in the shell, with the response's nonce on its tag.",
];

/** The four ways Brisk can answer a page, side by side: what each does per request, and where it fits. */
const WAYS: ReadonlyArray<readonly [string, string, string, string]> = [
  [
    "Rendered",
    "Middleware, loaders, then React renders the whole page and streams it.",
    "Every page, by default.",
    "Anything: the page may differ for every visitor and every request.",
  ],
  [
    "Prerendered",
    "Nothing of the app runs: the stored page is copied with a fresh nonce.",
    "prerender: true",
    "A page whose loader reads nothing of the request: a home page, a help page.",
  ],
  [
    "Cached",
    "Nothing renders while the kept answer is fresh; one render refreshes it when it is stale or dropped by a tag.",
    "cache: { maxAge, tags }",
    "A page the same for everyone between two writes: a product, a list, a post.",
  ],
  [
    "Shell",
    "Middleware and loaders run; React renders only the holes, after the shell's bytes from memory.",
    "shell: true",
    "A page the same for everyone but for a small part that reads the visitor.",
  ],
];

/** Questions a reader of this page asks, with their answers: more of the static part. */
const QUESTIONS: ReadonlyArray<readonly [string, string]> = [
  [
    "Does the status still come from the loader?",
    "Yes. The loaders run before the first byte, as for any page: a visitor the loader sends elsewhere gets the redirect, and a missing record its 404 page, never a shell with a 200.",
  ],
  [
    "What does the browser hydrate from?",
    "From this request's page data, in the boot script after the shell. The browser renders the whole page with it, so the greeting it hydrates is the one the server sent.",
  ],
  [
    "Is another visitor's data ever in my shell?",
    "No. The shell is rendered before any request arrives, with no loader data at all: a component that would need it waits in its hole, and one outside every hole stops the start.",
  ],
  [
    "What does a hole cost?",
    "React's resume walks down to the holes and renders what is in them. For a page like this one that is a greeting, against a page of headings, lists and a table rendered every time.",
  ],
  [
    "When is the shell rendered again?",
    "When the server starts: a deploy brings a new shell with the new code. Between two starts the shell does not change; what changes with the data belongs in a hole, or in the render cache.",
  ],
  [
    "Can a hole be slow?",
    "A hole renders from data the loaders have already read, so it is ready with the shell. A component in a hole that waits on something more streams in when that arrives, as a streamed section does.",
  ],
];

export function Shell() {
  return (
    <ExampleFrame title="Partial prerendering">
      <p className="lead">
        This page is a <strong>shell</strong> with one hole. The server rendered the shell once, when it started, with
        React&apos;s <code>prerender</code>; every request runs the route&apos;s loader, which reads the session, and
        React&apos;s <code>resume</code> renders only the greeting at the bottom of the page with that request&apos;s
        data. Two visitors get the same bytes for everything above it, but for the nonce.
      </p>
      <h2>What a request costs</h2>
      <ol className="steps">
        {STEPS.map(([step, what]) => (
          <li key={step}>
            <strong>{step}.</strong> {what}
          </li>
        ))}
      </ol>
      <h2>How a page becomes a shell</h2>
      <p>
        Mark the route <code>shell: true</code>. Put each component that reads loader data inside a{" "}
        <code>&lt;Suspense&gt;</code>: while the server prerenders the page its data is not there, so those components
        suspend, and their boundaries become the holes. Everything else is rendered once and reused.
      </p>
      <pre>
        <code>{`{ path: "/examples/shell", component: Shell, loader: shellLoader, shell: true }`}</code>
      </pre>
      <h2>What to know</h2>
      <ul className="facts">
        {FACTS.map((fact) => (
          <li key={fact}>{fact}</li>
        ))}
      </ul>
      <h2>Four ways to answer a page</h2>
      <table className="ways">
        <thead>
          <tr>
            <th scope="col">Way</th>
            <th scope="col">Per request</th>
            <th scope="col">How</th>
            <th scope="col">For</th>
          </tr>
        </thead>
        <tbody>
          {WAYS.map(([way, perRequest, how, forWhat]) => (
            <tr key={way}>
              <th scope="row">{way}</th>
              <td>{perRequest}</td>
              <td>
                <code>{how}</code>
              </td>
              <td>{forWhat}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <h2>Questions</h2>
      <dl className="questions">
        {QUESTIONS.map(([question, answer]) => (
          <div key={question}>
            <dt>{question}</dt>
            <dd>{answer}</dd>
          </div>
        ))}
      </dl>
      <h2>When to use it</h2>
      <p>
        A page that is the same for everyone but for a small part (the visitor&apos;s name, a cart&apos;s count, a like
        button&apos;s state) pays for rendering only that part. A page that is the same for everyone between two writes
        is better kept whole by the render cache (<Link href="/examples/popular">Popular</Link>); a page that never
        changes, prerendered.
      </p>
      <Suspense fallback={null}>
        <Greeting />
      </Suspense>
    </ExampleFrame>
  );
}
