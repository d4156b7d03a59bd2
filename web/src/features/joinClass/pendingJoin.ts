// A signed-out visitor's join code, kept for the tab's session until they have signed in or up.
const KEY = 'checkpoint.pendingJoinCode';

/** The query that tells the auth page a join is waiting (`/auth?mode=login&next=join`). */
export const JOIN_NEXT = 'join';

export function savePendingJoinCode(code: string): void {
  try {
    sessionStorage.setItem(KEY, code);
  } catch {
    // Storage disabled: the visitor enters the code again after signing in.
  }
}

export function peekPendingJoinCode(): string | null {
  try {
    return sessionStorage.getItem(KEY);
  } catch {
    return null;
  }
}

/** Reads and forgets the pending code. */
export function takePendingJoinCode(): string | null {
  const code = peekPendingJoinCode();
  try {
    sessionStorage.removeItem(KEY);
  } catch {
    // nothing to forget
  }
  return code;
}
