// PageBoundary.tsx: turns what a page throws in the browser into an outcome page or the error page.
import { Component, useEffect, type ErrorInfo, type ReactNode } from "react";
import { GlobalError } from "../../app/fallbacks/GlobalError.tsx";
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

function ClientException({ error, digest }: { error: unknown; digest: string }) {
  const nav = useNavigation();
  const e = error as { side?: unknown; message?: unknown; stack?: unknown; serverStack?: unknown };
  const dev = nav.config.mode !== "production";
  return (
    <GlobalError
      side={e?.side === "server" ? "server" : "client"}
      host={nav.host}
      digest={digest}
      message={dev && typeof e?.message === "string" ? e.message : undefined}
      stack={dev ? String(e?.serverStack ?? e?.stack ?? "") : undefined}
    />
  );
}

export class PageBoundary extends Component<Props, { error: unknown; caught: boolean; digest?: string }> {
  static override contextType = ReporterContext;
  declare context: Reporter;
  override state = { error: undefined as unknown, caught: false, digest: undefined as string | undefined };

  static getDerivedStateFromError(error: unknown) {
    // A failure of the page's own gets its digest here, so the page and the report show the same one.
    return { error, caught: true, digest: isOutcome(error) ? undefined : clientDigest(error) };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    if (isOutcome(error)) return;
    this.context({
      error,
      digest: this.state.digest ?? clientDigest(error),
      componentStack: info.componentStack ?? undefined,
      mechanism: "boundary",
    });
  }

  override render() {
    const { error, caught, digest } = this.state;
    if (!caught) return this.props.children;
    if (isOutcome(error)) {
      return error.kind === "redirect" ? <ClientRedirect to={error.location!} /> : <OutcomePage kind={error.kind} />;
    }
    return <ClientException error={error} digest={digest ?? clientDigest(error)} />;
  }
}
