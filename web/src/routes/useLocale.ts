import { useEffect } from 'react';
import { i18n } from '../i18n/i18n';
import { browserLocale, isLocale } from '../i18n/locales';
import type { User } from '../session/user';

/**
 * The interface's language: the signed-in user's `locale`, else the browser's (navigator.languages),
 * else English. <html lang> follows it (i18n.ts).
 */
export function useLocale(user: User | null): void {
  const wanted = isLocale(user?.locale) ? user.locale : browserLocale();
  useEffect(() => {
    if (i18n.language !== wanted) void i18n.changeLanguage(wanted);
  }, [wanted]);
}
