import type { ReactNode } from "react";
import { Link } from "wouter";

export function ExampleFrame({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main>
      <title>{`${title} · Brisk`}</title>
      <p>
        <Link href="/">← All examples</Link>
      </p>
      <h1>{title}</h1>
      {children}
    </main>
  );
}
