// stats.ts: the few numbers the bench reduces samples to.

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function round(value: number, digits = 1): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

/** Thousands separators, as the issue writes its anchors (6,747 req/s). */
export function int(value: number): string {
  return Math.round(value).toLocaleString("en-US");
}
