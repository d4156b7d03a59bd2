// A picture or two words: the password the teacher sets for a student without email.
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { PicturePicker, suggestWords } from './pictures';
import type { Picture, StudentSecret } from './studentLoginsApi';
import { useTranslation } from '../../i18n/react';

export interface SecretDraft {
  kind: 'picture' | 'words';
  picture: Picture | undefined;
  words: string;
}

export const emptySecret = (): SecretDraft => ({ kind: 'picture', picture: undefined, words: suggestWords() });

/** The secret to send, or the key ('teacher:…', for any screen's t) of the message saying what is missing. */
export function secretOf(draft: SecretDraft): StudentSecret | string {
  if (draft.kind === 'picture')
    return draft.picture ? { kind: 'picture', picture: draft.picture } : 'teacher:logins.secret.pickPicture';
  const words = draft.words.trim().toLowerCase().split(/\s+/).join(' ');
  return /^[a-z]{2,12} [a-z]{2,12}$/.test(words) ? { kind: 'words', words } : 'teacher:logins.secret.typeWords';
}

export function SecretFields({
  idPrefix,
  draft,
  onChange,
}: {
  idPrefix: string;
  draft: SecretDraft;
  onChange: (draft: SecretDraft) => void;
}) {
  const { t } = useTranslation('teacher');
  return (
    <>
      <fieldset className="mb-2">
        <legend className="form-label fs-6">{t('logins.secret.signsInWith')}</legend>
        <Form.Check
          inline
          type="radio"
          id={`${idPrefix}-kind-picture`}
          name={`${idPrefix}-kind`}
          label={t('logins.secret.picture')}
          checked={draft.kind === 'picture'}
          onChange={() => onChange({ ...draft, kind: 'picture' })}
        />
        <Form.Check
          inline
          type="radio"
          id={`${idPrefix}-kind-words`}
          name={`${idPrefix}-kind`}
          label={t('logins.secret.words')}
          checked={draft.kind === 'words'}
          onChange={() => onChange({ ...draft, kind: 'words' })}
        />
      </fieldset>
      {draft.kind === 'picture' ? (
        <PicturePicker
          idPrefix={idPrefix}
          label={t('logins.secret.theirPicture')}
          value={draft.picture}
          onChange={(picture) => onChange({ ...draft, picture })}
        />
      ) : (
        <Form.Group className="mb-3" controlId={`${idPrefix}-words`}>
          <Form.Label>{t('logins.secret.theirWords')}</Form.Label>
          <div className="d-flex gap-2">
            <Form.Control value={draft.words} onChange={(e) => onChange({ ...draft, words: e.target.value })} />
            <Button variant="outline-secondary" onClick={() => onChange({ ...draft, words: suggestWords() })}>
              {t('logins.secret.suggest')}
            </Button>
          </div>
        </Form.Group>
      )}
    </>
  );
}
