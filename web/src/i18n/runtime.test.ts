// The interface's text runtime (i18n.ts): lookup by namespace, {{placeholders}}, plural forms,
// missing keys reported, and a language switch that waits for the strings already shown.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { i18n, initI18n, type Resources } from './i18n';

const RESOURCES: Resources = {
  en: {
    common: {
      hello: 'Hello {{name}}',
      n: { questions_one: '{{count}} question', questions_other: '{{count}} questions' },
    },
    take: { submit: 'Submit' },
  },
  es: {
    common: {
      hello: 'Hola {{name}}',
      n: { questions_one: '{{count}} pregunta', questions_other: '{{count}} preguntas' },
    },
    take: { submit: 'Enviar' },
  },
};

// test/setup.ts starts the runtime with every file; these tests use their own strings, then put
// the files back.
const saved = structuredClone(RESOURCES);
afterEach(async () => {
  const { resources } = await import('../test/localeResources');
  initI18n({ language: 'en', resources });
});

describe('the text runtime', () => {
  it('fills placeholders, picks the plural form of the language and reads ns:key', async () => {
    initI18n({ language: 'en', resources: structuredClone(saved) });
    expect(i18n.t('hello', { name: 'Ada' })).toBe('Hello Ada');
    expect(i18n.t('n.questions', { count: 1 })).toBe('1 question');
    expect(i18n.t('n.questions', { count: 0 })).toBe('0 questions');
    expect(i18n.getFixedT('take')('submit')).toBe('Submit');
    expect(i18n.getFixedT('take')('common:hello', { name: 'Bo' })).toBe('Hello Bo');
    await i18n.changeLanguage('es');
    expect(i18n.t('n.questions', { count: 2 })).toBe('2 preguntas');
    expect(document.documentElement.lang).toBe('es');
  });

  it('answers a missing key with its default or the key, and reports it when asked to', () => {
    initI18n({ language: 'en', resources: structuredClone(saved) });
    const onMissing = vi.fn();
    i18n.options.saveMissing = true;
    i18n.on('missingKey', onMissing);
    expect(i18n.t('nope.key')).toBe('nope.key');
    expect(i18n.t('nope.other', { defaultValue: 'Fallback' })).toBe('Fallback');
    expect(i18n.exists('nope.key')).toBe(false);
    expect(i18n.exists('hello')).toBe(true);
    expect(onMissing).toHaveBeenCalledWith(['en'], 'common', 'nope.key');
    i18n.off('missingKey', onMissing);
    i18n.options.saveMissing = false;
  });

  it('loads only the current language, one namespace file at a time, and a switch loads what is shown first', async () => {
    initI18n({ language: 'es' });
    await i18n.load('common');
    expect(i18n.hasLoaded('common')).toBe(true);
    expect(i18n.hasLoaded('take')).toBe(false);
    expect(i18n.hasLoaded('common', 'en')).toBe(false);
    expect(i18n.t('tryAgain')).not.toBe('tryAgain');
    const switched = i18n.changeLanguage('en');
    expect(i18n.language).toBe('es');
    await switched;
    expect(i18n.language).toBe('en');
    expect(i18n.hasLoaded('common', 'en')).toBe(true);
  });
});
