/** Polls `fn` until `check` passes or the time is up, and returns the last value (asynchronous effects). */
export async function eventually<T>(
  fn: () => Promise<T>,
  check: (value: T) => boolean,
  timeoutMs = 15_000,
): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (check(value) || Date.now() > end) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
}
