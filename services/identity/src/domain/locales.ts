// The interface languages (issue 32); the web's list is web/src/i18n/locales.ts. A third language
// is a line here, its mail texts in email-texts.ts and its files in the web.
export const LOCALES = ['en', 'es'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en';

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

/** The first supported language of an Accept-Language header ('es-MX,es;q=0.9' → 'es'), else en. */
export function localeFromAcceptLanguage(header: string | undefined): Locale {
  const tags = (header ?? '')
    .split(',')
    .map((part) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^q=([\d.]+)$/.exec(p.trim())?.[1]).find(Boolean);
      return { base: tag.toLowerCase().split('-')[0], q: q === undefined ? 1 : Number(q) };
    })
    .filter((t) => t.q > 0)
    .sort((a, b) => b.q - a.q);
  return tags.map((t) => t.base).find(isLocale) ?? DEFAULT_LOCALE;
}
