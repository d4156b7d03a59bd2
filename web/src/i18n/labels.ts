import { useCallback } from 'react';
import { useTranslation } from './react';

/**
 * The shared helpers of the assessments feature name levels and practice links in English (their
 * unit tests read those words); a screen shows them through this, in the interface's language
 * (common namespace, `label.<the English words, each run of other characters an underscore>`).
 */
export function useLabel(): (english: string) => string {
  const { t } = useTranslation('common');
  return useCallback(
    (english: string) => t(`label.${english.replace(/[^A-Za-z0-9]+/g, '_')}`, { defaultValue: english }),
    [t],
  );
}
