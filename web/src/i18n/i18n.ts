// The interface's texts (react-i18next). Resources are JSON files, one per language per namespace,
// under web/src/locales/<lang>/<ns>.json; the app loads only the current language's namespaces, each
// when a screen first asks for it (a lazy chunk per file), so the taking page downloads its own
// strings in one language and not the rest. Tests load every file at once (test/setup.ts).
import i18next, { type BackendModule, type ResourceKey } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LOCALE, LOCALE_CODES, browserLocale, type Locale } from './locales';

/** The namespaces: common (shell, buttons, validation, toasts) and one per area of the app. */
export const NAMESPACES = ['common', 'auth', 'student', 'take', 'teacher', 'admin'] as const;
export type Namespace = (typeof NAMESPACES)[number];

const files = import.meta.glob<{ default: ResourceKey }>('../locales/*/*.json');

const lazyFiles: BackendModule = {
  type: 'backend',
  init() {},
  read(language, namespace, callback) {
    const load = files[`../locales/${language}/${namespace}.json`];
    if (!load) {
      callback(new Error(`no strings for ${language}/${namespace}`), false);
      return;
    }
    load().then(
      (module) => callback(null, module.default),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), false),
    );
  },
};

/** Keeps <html lang> in step with the interface's language. */
function syncHtmlLang(language: string) {
  if (typeof document !== 'undefined') document.documentElement.lang = language;
}

/**
 * Starts i18next for the app: the browser's language until the signed-in user's is known
 * (LocaleSync), strings loaded lazily. With `resources` (tests, the landing page's pre-render) it
 * uses them as they are and loads nothing.
 */
export function initI18n(options: { language?: Locale; resources?: Record<string, Record<string, ResourceKey>> } = {}) {
  const language = options.language ?? browserLocale();
  if (!options.resources) i18next.use(lazyFiles);
  i18next.use(initReactI18next);
  void i18next.init({
    lng: language,
    fallbackLng: DEFAULT_LOCALE,
    supportedLngs: [...LOCALE_CODES],
    ns: ['common'],
    defaultNS: 'common',
    ...(options.resources ? { resources: options.resources, initAsync: false } : {}),
    interpolation: { escapeValue: false },
    returnNull: false,
    react: { useSuspense: true },
  });
  syncHtmlLang(language);
  i18next.on('languageChanged', syncHtmlLang);
  return i18next;
}

export { i18next as i18n };
