// Where the student's answers are, in a calm line read out politely by screen readers: saving,
// saved, or kept on this device for now. The region is always there (empty before the first
// answer) so that its changes are announced.
import { serverMessageOr } from '../../api/apiError';
import type { SaveState } from './autosaver';

import { i18n } from '../../i18n/i18n';

/** The English text (tests); the line shows it in the interface's language. */
export const OFFLINE_TEXT = 'Offline — your answers are kept on this device and will be sent when you are back online';

function text({ status, error }: SaveState): string {
  switch (status) {
    case 'idle':
      return '';
    case 'saving':
      return i18n.t('take:status.saving');
    case 'saved':
      return i18n.t('take:status.saved');
    case 'offline':
      return i18n.t('take:status.offline');
    case 'retrying':
      return i18n.t('take:status.retrying');
    case 'refused':
      return i18n.t('take:status.refused', { reason: serverMessageOr(error, i18n.t('take:status.refusedReason')) });
  }
}

export function SaveStatusLine({ state }: { state: SaveState }) {
  return (
    <p role="status" aria-live="polite" className="small text-body-secondary mb-3" data-testid="save-status">
      {text(state)}
    </p>
  );
}
