// Where the student's answers are, in a calm line read out politely by screen readers: saving,
// saved, or kept on this device for now. The region is always there (empty before the first
// answer) so that its changes are announced.
import { serverMessageOr } from '../../api/apiError';
import type { SaveState } from './autosaver';

export const OFFLINE_TEXT = 'Offline — your answers are kept on this device and will be sent when you are back online';

function text({ status, error }: SaveState): string {
  switch (status) {
    case 'idle':
      return '';
    case 'saving':
      return 'Saving…';
    case 'saved':
      return 'Saved';
    case 'offline':
      return OFFLINE_TEXT;
    case 'retrying':
      return 'Not sent yet — your answers are kept on this device and will be sent as soon as the server answers';
    case 'refused':
      return `Not saved: ${serverMessageOr(error, 'the server did not accept an answer')}`;
  }
}

export function SaveStatusLine({ state }: { state: SaveState }) {
  return (
    <p role="status" aria-live="polite" className="small text-body-secondary mb-3" data-testid="save-status">
      {text(state)}
    </p>
  );
}
