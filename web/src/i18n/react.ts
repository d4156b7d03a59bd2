import { useMemo, useSyncExternalStore } from 'react';
import { i18n, type Namespace, type TFunction } from './i18n';

const version = () => i18n.version;

/**
 * The texts of a namespace for a component: t('key') (or 'ns:key'), re-rendered when the language
 * changes. The first time a namespace is asked for in a language the component suspends (the
 * nearest <Suspense>) while its file loads.
 */
export function useTranslation(namespace: Namespace = 'common'): { t: TFunction; i18n: typeof i18n } {
  const current = useSyncExternalStore(i18n.subscribe, version, version);
  const language = i18n.language;
  const t = useMemo(() => i18n.getFixedT(namespace), [namespace, language, current]);
  if (!i18n.hasLoaded(namespace)) throw i18n.load(namespace);
  return { t, i18n };
}
