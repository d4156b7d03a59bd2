// The interface's texts. Resources are JSON files, one per language per namespace, under
// web/src/locales/<lang>/<ns>.json (i18next's format: nested keys, {{name}} placeholders, plural
// forms as key_one / key_other); the app loads only the current language's namespaces, each when a
// screen first asks for it (a lazy chunk per file), so the taking page downloads its own strings in
// one language and not the rest. Tests load every file at once (test/setup.ts).
//
// The runtime is this file and ./react.ts, about 1 KB gzip: i18next (16 KB gzip) and react-i18next
// (3.4 KB) were on every page, which put the landing page and the teacher's assessment pages over
// their JavaScript budgets (scripts/web-budgets.mjs); the app used only lookup, interpolation,
// plurals and lazy namespaces, which is what is here. The files stay in i18next's format.
import { DEFAULT_LOCALE, browserLocale, type Locale } from './locales';

/** The namespaces: common (shell, buttons, validation, toasts) and one per area of the app (a namespace without files yet is not loaded by any screen). */
export const NAMESPACES = [
  'common',
  'auth',
  'student',
  'take',
  'teacher',
  'assessments',
  'results',
  'bank',
  'admin',
  'landing',
] as const;
export type Namespace = (typeof NAMESPACES)[number];

/** A namespace's strings: nested objects of texts. */
export interface ResourceKey {
  [key: string]: string | ResourceKey;
}
export type Resources = Record<string, Record<string, ResourceKey>>;

/** Options of a lookup: its namespace, a fallback text, a count (plural form) and placeholders' values. */
export type TOptions = { ns?: string; defaultValue?: string; count?: number } & Record<string, unknown>;
export type TFunction = (key: string, options?: TOptions) => string;

type Loader = (language: string, namespace: string) => Promise<ResourceKey>;
type MissingKeyListener = (languages: readonly string[], namespace: string, key: string) => void;
type LanguageListener = (language: string) => void;

const files = import.meta.glob<{ default: ResourceKey }>('../locales/*/*.json');

const lazyFiles: Loader = async (language, namespace) => {
  const load = files[`../locales/${language}/${namespace}.json`];
  if (!load) throw new Error(`no strings for ${language}/${namespace}`);
  return (await load()).default;
};

const PLACEHOLDER = /\{\{\s*([\w.]+)\s*\}\}/g;

function lookup(strings: ResourceKey | undefined, key: string): string | undefined {
  let value: string | ResourceKey | undefined = strings;
  for (const part of key.split('.')) {
    if (value === undefined || typeof value === 'string') return undefined;
    value = value[part];
  }
  return typeof value === 'string' ? value : undefined;
}

class Translator {
  language: Locale = DEFAULT_LOCALE;
  /** saveMissing: report every missing key to the 'missingKey' listeners (the raw-key check). */
  readonly options = { defaultNS: 'common', saveMissing: false };
  private resources: Resources = {};
  private loading = new Map<string, Promise<void>>();
  private loader: Loader | undefined;
  private missingListeners = new Set<MissingKeyListener>();
  private languageListeners = new Set<LanguageListener>();
  private changeListeners = new Set<() => void>();
  /** Bumped whenever what t answers may change (a language, a namespace loaded): useTranslation re-renders. */
  version = 0;

  get resolvedLanguage(): Locale {
    return this.language;
  }

  configure(language: Locale, resources: Resources | undefined) {
    this.language = language;
    this.loader = resources ? undefined : lazyFiles;
    this.resources = resources ?? {};
    this.loading.clear();
    this.touch();
  }

  hasLoaded(namespace: string, language: string = this.language): boolean {
    return this.resources[language]?.[namespace] !== undefined;
  }

  /** Loads a namespace of a language once (a no-op when it is there or there is no loader). */
  load(namespace: string, language: string = this.language): Promise<void> {
    if (this.hasLoaded(namespace, language) || !this.loader) return Promise.resolve();
    const id = `${language}/${namespace}`;
    let pending = this.loading.get(id);
    if (!pending) {
      pending = this.loader(language, namespace).then(
        (strings) => {
          (this.resources[language] ??= {})[namespace] = strings;
          this.touch();
        },
        (error: unknown) => {
          // Retried on the next ask; the screen shows its keys meanwhile rather than nothing.
          this.loading.delete(id);
          (this.resources[language] ??= {})[namespace] ??= {};
          console.error(error);
          this.touch();
        },
      );
      this.loading.set(id, pending);
    }
    return pending;
  }

  /** Switches the language once the namespaces already shown are loaded in it (no screen suspends). */
  async changeLanguage(language: Locale): Promise<void> {
    const shown = Object.keys(this.resources[this.language] ?? {});
    await Promise.all(shown.map((namespace) => this.load(namespace, language)));
    if (language === this.language) return;
    this.language = language;
    this.touch();
    for (const listener of this.languageListeners) listener(language);
  }

  private resolve(key: string, options: TOptions | undefined, fallbackNs: string) {
    const colon = key.indexOf(':');
    const namespace = colon > 0 ? key.slice(0, colon) : (options?.ns ?? fallbackNs);
    const path = colon > 0 ? key.slice(colon + 1) : key;
    const strings = this.resources[this.language]?.[namespace];
    let text: string | undefined;
    if (typeof options?.count === 'number') {
      const form = new Intl.PluralRules(this.language).select(options.count);
      text = lookup(strings, `${path}_${form}`) ?? lookup(strings, `${path}_other`);
    }
    text ??= lookup(strings, path);
    return { namespace, path, text };
  }

  exists(key: string, options?: { ns?: string }): boolean {
    return this.resolve(key, options, this.options.defaultNS).text !== undefined;
  }

  /** The text of a key ('key', 'ns:key', or { ns }) in the current language, its {{placeholders}} filled. */
  t(key: string, options?: TOptions, fallbackNs: string = this.options.defaultNS): string {
    const { namespace, path, text } = this.resolve(key, options, fallbackNs);
    if (text === undefined) {
      if (this.options.saveMissing)
        for (const listener of this.missingListeners) listener([this.language], namespace, path);
      return options?.defaultValue ?? path;
    }
    if (!options) return text;
    return text.replace(PLACEHOLDER, (whole, name: string) => {
      const value = options[name];
      return value === undefined || value === null ? whole : String(value as string | number);
    });
  }

  getFixedT(namespace: string): TFunction {
    return (key, options) => this.t(key, options, namespace);
  }

  on(event: 'missingKey', listener: MissingKeyListener): void;
  on(event: 'languageChanged', listener: LanguageListener): void;
  on(event: 'missingKey' | 'languageChanged', listener: MissingKeyListener | LanguageListener) {
    if (event === 'missingKey') this.missingListeners.add(listener as MissingKeyListener);
    else this.languageListeners.add(listener as LanguageListener);
  }

  off(event: 'missingKey' | 'languageChanged', listener: MissingKeyListener | LanguageListener) {
    if (event === 'missingKey') this.missingListeners.delete(listener as MissingKeyListener);
    else this.languageListeners.delete(listener as LanguageListener);
  }

  /** For useSyncExternalStore: called on every change of language or strings. */
  subscribe = (listener: () => void) => {
    this.changeListeners.add(listener);
    return () => {
      this.changeListeners.delete(listener);
    };
  };

  private touch() {
    this.version += 1;
    for (const listener of this.changeListeners) listener();
  }
}

export const i18n = new Translator();

/** Keeps <html lang> in step with the interface's language. */
function syncHtmlLang(language: string) {
  if (typeof document !== 'undefined') document.documentElement.lang = language;
}

/**
 * Starts the interface's texts: the browser's language until the signed-in user's is known
 * (useLocale), strings loaded lazily, common at once. With `resources` (tests) it uses them as they
 * are and loads nothing.
 */
export function initI18n(options: { language?: Locale; resources?: Resources } = {}) {
  const language = options.language ?? browserLocale();
  i18n.configure(language, options.resources);
  void i18n.load(i18n.options.defaultNS);
  syncHtmlLang(language);
  i18n.off('languageChanged', syncHtmlLang);
  i18n.on('languageChanged', syncHtmlLang);
  return i18n;
}
