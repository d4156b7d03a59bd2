import { useEffect } from 'react';
import type { User } from '../session/user';

/** Dark mode is a per-user preference; Bootstrap reads it from <html data-bs-theme>. */
export function useColorMode(user: User | null): void {
  const dark = user?.preferences?.darkMode === true;
  useEffect(() => {
    const root = document.documentElement;
    if (dark) root.setAttribute('data-bs-theme', 'dark');
    else root.removeAttribute('data-bs-theme');
  }, [dark]);
}
