// PageBoundary.tsx: turns what a page throws in the browser into an outcome page or the error page.
import { Component, useEffect, type ErrorInfo, type ReactNode } from "react";
import { useAppRuntime } from "./app-context.ts";
import { clientErrorPageProps } from "./error-page.ts";
import { OutcomePage } from "./OutcomePage.tsx";
import { useNavigation } from "./navigation.ts";
import { isOutcome } from "./outcome.ts";
import { clientDigest, ReporterContext, type Reporter } from "./report.ts";

interface Props {
  children: ReactNode;
}

function ClientRedirect({ to }: { to: string }) {
  const nav = useNavigation();
  useEffect(() => nav.navigate(to, { replace: true }), [nav, to]);
  return null;
}

function ClientException({ error }: { error: unknown }) {
  const nav = useNavigation();
  const { error: ErrorPage } = useAppRuntime().app.fallbacks;
  return <ErrorPage {...clientErrorPageProps(error, nav.host, nav.config.mode)} />;
}

export class PageBoundary extends Component<Props, { error: unknown; caught: boolean }> {
  static override contextType = ReporterContext;
  declare context: Reporter;
  override state = { error: undefined as unknown, caught: false };

  static getDerivedStateFromError(error: unknown) {
    return { error, caught: true };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    if (isOutcome(error)) return;
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
    if (isOutcome(error)) {
      return error.kind === "redirect" ? <ClientRedirect to={error.location!} /> : <OutcomePage kind={error.kind} />;
    }
    return <ClientException error={error} />;
  }
}
