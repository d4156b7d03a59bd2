import { useCallback } from 'react';
import { useTranslation } from './react';

/**
 * A form's message in the interface's language: the forms' zod schemas give keys of the common
 * namespace ('validation.emailInvalid'); anything else (a server's message naming a field) is shown
 * as it came.
 */
export function useMessage(): (message: string | undefined) => string | undefined {
  const { t, i18n } = useTranslation('common');
  return useCallback(
    (message) => (message && i18n.exists(message, { ns: 'common' }) ? t(message) : message),
    [t, i18n],
  );
}
