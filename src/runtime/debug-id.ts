// debug-id.ts: the debug id a built script ends with, which names its source map to Sentry.

/** Bun ends each script of a build with external source maps with this comment, the map's `debugId`. */
const DEBUG_ID_COMMENT =
  /\/\/# debugId=([0-9A-Fa-f]{8}-?[0-9A-Fa-f]{4}-?[0-9A-Fa-f]{4}-?[0-9A-Fa-f]{4}-?[0-9A-Fa-f]{12})\s*$/;

export function debugIdOf(script: string): string | undefined {
  return DEBUG_ID_COMMENT.exec(script)?.[1];
}

/** Sentry's form of a debug id: a lowercase UUID with dashes (Bun writes 32 uppercase hex digits). */
export function sentryDebugId(id: string): string {
  const hex = id.replace(/-/g, "").toLowerCase();
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
