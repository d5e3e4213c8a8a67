// PageBoundary.tsx: turns what a page throws in the browser into an outcome page or the error page: the
// app's around the whole page, a route's own around its level and inside its <Outlet /> (the layout stays).
import { Component, useEffect, type ErrorInfo, type ReactNode } from "react";
import { useAppRuntime } from "./app-context.ts";
import { clientErrorPageProps } from "./error-page.ts";
import { OutcomePage } from "./OutcomePage.tsx";
import { useNavigation } from "./navigation.ts";
import { isOutcome } from "./outcome.ts";
import { clientDigest, ReporterContext, type Reporter } from "./report.ts";
import type { RouteFallbacks } from "./route.ts";

interface Props {
  children: ReactNode;
  /** A route's fallbacks: what it has no page for goes on to the boundary above. Absent: the app's pages. */
  fallbacks?: RouteFallbacks;
  /** A new value clears what was caught: the page moved on. */
  reset?: string;
}

interface State {
  error: unknown;
  caught: boolean;
  reset?: string;
}

function ClientRedirect({ to }: { to: string }) {
  const nav = useNavigation();
  useEffect(() => nav.navigate(to, { replace: true }), [nav, to]);
  return null;
}

function ClientException({ error, fallbacks }: { error: unknown; fallbacks?: RouteFallbacks }) {
  const nav = useNavigation();
  const { app } = useAppRuntime();
  const ErrorPage = fallbacks?.error ?? app.fallbacks.error;
  return <ErrorPage {...clientErrorPageProps(error, nav.host, nav.config.mode)} />;
}

export class PageBoundary extends Component<Props, State> {
  static override contextType = ReporterContext;
  declare context: Reporter;
  override state: State = { error: undefined, caught: false, reset: this.props.reset };

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { error, caught: true };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    return props.reset === state.reset ? null : { error: undefined, caught: false, reset: props.reset };
  }

  /** Whether this boundary has a page for what was thrown; a redirect needs none. */
  private handles(error: unknown): boolean {
    const { fallbacks } = this.props;
    if (!fallbacks) return true;
    if (!isOutcome(error)) return fallbacks.error !== undefined;
    return error.kind === "redirect" || fallbacks[error.kind] !== undefined;
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    // Reported by the boundary that shows it, once: one that passes it on reports nothing.
    if (isOutcome(error) || !this.handles(error)) return;
    this.context({
      error,
      // The same digest the error page shows: one per error object (see clientDigest).
      digest: clientDigest(error),
      componentStack: info.componentStack ?? undefined,
      mechanism: "boundary",
    });
  }

  override render() {
    const { error, caught } = this.state;
    if (!caught) return this.props.children;
    // Rethrown from render, it reaches the next boundary up, the nearest one with a page for it.
    if (!this.handles(error)) throw error;
    const { fallbacks } = this.props;
    if (isOutcome(error)) {
      if (error.kind === "redirect") return <ClientRedirect to={error.location!} />;
      return <OutcomePage kind={error.kind} fallback={fallbacks?.[error.kind]} />;
    }
    return <ClientException error={error} fallbacks={fallbacks} />;
  }
}
