// The languages of the interface: one list. A third language is its folder of JSON files under
// web/src/locales/<code>/ (one per namespace, the same keys as en) and its line here; the server's
// list (services/identity/src/locales.ts) takes the same line.

export const LOCALES = [
  // intl: the tag Intl formats dates and numbers with (a US district's English and Spanish).
  { code: 'en', intl: 'en-US', name: 'English' },
  { code: 'es', intl: 'es-US', name: 'Español' },
] as const;

export type Locale = (typeof LOCALES)[number]['code'];

export const DEFAULT_LOCALE: Locale = 'en';

export const LOCALE_CODES: readonly Locale[] = LOCALES.map((l) => l.code);

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALE_CODES as readonly string[]).includes(value);
}

/** The first supported language among the browser's (navigator.languages: 'es-MX' → 'es'), else en. */
export function browserLocale(languages: readonly string[] | undefined = globalThis.navigator?.languages): Locale {
  for (const tag of languages ?? []) {
    const base = tag.toLowerCase().split('-')[0];
    if (isLocale(base)) return base;
  }
  return DEFAULT_LOCALE;
}

/** The Intl tag of a locale ('es' → 'es-US'); en-US for anything unknown. */
export function intlTag(locale: string): string {
  return LOCALES.find((l) => l.code === locale)?.intl ?? 'en-US';
}
