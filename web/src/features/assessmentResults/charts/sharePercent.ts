/** A 0..1 share as a rounded whole percent, or null when there is nothing to share. */
export function sharePercent(share: number | null): number | null {
  return share === null ? null : Math.round(share * 100);
}
