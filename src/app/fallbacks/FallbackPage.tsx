// FallbackPage.tsx: the common frame of the outcome and error pages.
import type { ReactNode } from "react";
import { Link } from "wouter";

export function FallbackPage({ title, code, children }: { title: string; code: string; children: ReactNode }) {
  return (
    <main className="fallback">
      <title>{title}</title>
      <h1>
        <span className="code">{code}</span> {title}
      </h1>
      {children}
      <p>
        <Link href="/">Back to the home page</Link>
      </p>
    </main>
  );
}
