// Latency figures shared by the benchmark's scripts. Node built-ins only.

/** The nearest-rank percentile `p` (0–100) of an ascending list; undefined when it is empty. */
export const percentile = (sorted, p) =>
  sorted.length
    ? sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]
    : undefined;

/** count, p50, p95, p99, avg and max of a list of durations (any order; not changed). */
export function summarize(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    count: sorted.length,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    avg: sorted.length ? sorted.reduce((sum, v) => sum + v, 0) / sorted.length : undefined,
    max: sorted.at(-1),
  };
}
