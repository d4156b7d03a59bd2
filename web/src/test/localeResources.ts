import type { ResourceKey, Resources } from '../i18n/i18n';

// Every language's strings at once (the tests render any screen in either language).
const localeFiles = import.meta.glob<ResourceKey>('../locales/*/*.json', { eager: true, import: 'default' });
export const resources: Resources = {};
for (const [file, strings] of Object.entries(localeFiles)) {
  const [, language, namespace] = /\/locales\/([^/]+)\/([^/]+)\.json$/.exec(file) ?? [];
  if (language && namespace) (resources[language] ??= {})[namespace] = strings;
}
