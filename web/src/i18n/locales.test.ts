// The check that every language has every string: the same keys in each locale's file of each
// namespace as in English (and no key English lacks), no empty value, the same {{placeholders}}
// and <tags>, and every supported locale has every namespace's file.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LOCALE_CODES } from './locales';
import { NAMESPACES } from './i18n';

const dir = path.resolve(import.meta.dirname, '../locales');

function flatten(value: unknown, prefix = ''): Map<string, unknown> {
  const out = new Map<string, unknown>();
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    for (const [key, inner] of Object.entries(value)) {
      for (const [k, v] of flatten(inner, prefix ? `${prefix}.${key}` : key)) out.set(k, v);
    }
  } else out.set(prefix, value);
  return out;
}

/** i18next's plural forms of a key ('questions_one', 'questions_other') are one key. */
const baseKey = (key: string) => key.replace(/_(zero|one|two|few|many|other)$/, '');

const read = (locale: string, ns: string) =>
  flatten(JSON.parse(readFileSync(path.join(dir, locale, `${ns}.json`), 'utf8')) as unknown);

const namespacesOnDisk = (locale: string) =>
  readdirSync(path.join(dir, locale))
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.replace(/\.json$/, ''))
    .sort();

const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)/g)].map((m) => m[1]).sort();
const tags = (text: string) => [...text.matchAll(/<\/?(\w+)\s*\/?>/g)].map((m) => m[0]).sort();

describe('the locale files', () => {
  it('every supported locale has a file for each namespace in use, and no other', () => {
    const used = NAMESPACES.filter((ns) => namespacesOnDisk('en').includes(ns));
    for (const locale of LOCALE_CODES) expect(namespacesOnDisk(locale), locale).toEqual([...used].sort());
    // Every file on disk is a declared namespace (a file nobody loads is a mistake).
    for (const ns of namespacesOnDisk('en')) expect(NAMESPACES, ns).toContain(ns);
  });

  for (const locale of LOCALE_CODES.filter((l) => l !== 'en')) {
    for (const ns of namespacesOnDisk('en')) {
      it(`${locale}/${ns}.json has every key of en (and only those), none empty, same placeholders and tags`, () => {
        const en = read('en', ns);
        const other = read(locale, ns);
        const enKeys = new Set([...en.keys()].map(baseKey));
        const otherKeys = new Set([...other.keys()].map(baseKey));
        expect(
          [...enKeys].filter((k) => !otherKeys.has(k)),
          `missing in ${locale}/${ns}`,
        ).toEqual([]);
        expect(
          [...otherKeys].filter((k) => !enKeys.has(k)),
          `not in en/${ns}`,
        ).toEqual([]);
        for (const [file, strings] of [
          ['en', en],
          [locale, other],
        ] as const) {
          for (const [key, value] of strings) {
            expect(typeof value === 'string' && value.trim() !== '', `${file}/${ns}: ${key} is empty`).toBe(true);
          }
        }
        for (const [key, value] of other) {
          const source = en.get(key) ?? en.get(`${baseKey(key)}_other`);
          if (typeof source !== 'string' || typeof value !== 'string') continue;
          // Spanish plural forms may drop {{count}} in "one"; other keys keep every placeholder.
          if (!/_(one|zero)$/.test(key))
            expect(placeholders(value), `${locale}/${ns}: ${key}`).toEqual(placeholders(source));
          expect(tags(value), `${locale}/${ns}: ${key}`).toEqual(tags(source));
        }
      });
    }
  }
});
