/** Remembers a pure function of a short text (tagging is the slow part of generation). */
export function memo<T>(fn: (s: string) => T, max = 5_000): (s: string) => T {
  const cache = new Map<string, T>();
  return (s) => {
    const hit = cache.get(s);
    if (hit !== undefined || cache.has(s)) return hit as T;
    const value = fn(s);
    if (cache.size >= max) cache.delete(cache.keys().next().value!);
    cache.set(s, value);
    return value;
  };
}
