// What a test of a screen in Spanish needs: the interface switched to Spanish before each test, with
// every key the runtime cannot find recorded, and a check that the screen shows no raw key (a
// 'ns:key', or a key of the English files, as text or in a label) and that <html lang> is es.
// Each area's Spanish screens test (web/src/i18n/spanish*.test.tsx) calls inSpanish() once at its top.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, expect } from 'vitest';
import { i18n, NAMESPACES } from '../i18n/i18n';

const dir = path.resolve(import.meta.dirname, '../locales/en');

/** Every key of the English files, as the runtime prints it when missing ('dashboard.caughtUp'). */
function allKeys(): string[] {
  const keys: string[] = [];
  const walk = (value: unknown, prefix: string) => {
    if (value && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) walk(v, prefix ? `${prefix}.${k}` : k);
    } else if (prefix.includes('.')) keys.push(prefix.replace(/_(one|other)$/, ''));
  };
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.json')))
    walk(JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as unknown, '');
  return keys;
}
const KEYS = allKeys();
const RAW_NS_KEY = new RegExp(`\\b(?:${NAMESPACES.join('|')}):[A-Za-z]`);

let missing: string[] = [];
const onMissing = (_lngs: readonly string[], ns: string, key: string) => missing.push(`${ns}:${key}`);

/** Registers, for the file's tests, the switch to Spanish and the record of missing keys. */
export function inSpanish() {
  beforeEach(async () => {
    missing = [];
    i18n.options.saveMissing = true;
    i18n.on('missingKey', onMissing);
    await i18n.changeLanguage('es');
  });
  afterEach(() => {
    i18n.off('missingKey', onMissing);
    i18n.options.saveMissing = false;
  });
}

/** The screen as rendered now shows no raw key, no key was missing, and <html lang> is es. */
export function expectNoRawKeys() {
  const text = document.body.textContent ?? '';
  const labels = [...document.querySelectorAll('[aria-label],[placeholder],[title]')]
    .flatMap((el) => ['aria-label', 'placeholder', 'title'].map((a) => el.getAttribute(a) ?? ''))
    .join('\n');
  for (const shown of [text, labels]) {
    expect(shown).not.toMatch(RAW_NS_KEY);
    expect(KEYS.filter((key) => shown.includes(key))).toEqual([]);
  }
  expect(missing).toEqual([]);
  expect(document.documentElement.lang).toBe('es');
}
