// A student's age band on the sign-up form (docs/adr/015-students-without-email.md): a student under
// 13 is told to ask their teacher for a login card (the server refuses their email unless it is
// their school's address).
import Alert from 'react-bootstrap/Alert';
import Form from 'react-bootstrap/Form';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { useTranslation } from '../../i18n/react';
import { useMessage } from '../../i18n/messages';

export function AgeBandChoice({
  registration,
  error: rawError,
  under13,
}: {
  registration: UseFormRegisterReturn;
  error?: string | undefined;
  under13: boolean;
}) {
  const error = useMessage()(rawError);
  const { t } = useTranslation('auth');
  return (
    <fieldset className="mb-3" aria-describedby={error ? 'signup-age-error' : undefined}>
      <legend className="form-label fs-6">{t('signUp.age.legend')}</legend>
      <Form.Check
        inline
        type="radio"
        id="signup-age-under-13"
        label={t('signUp.age.under13')}
        value="under_13"
        isInvalid={Boolean(error)}
        {...registration}
      />
      <Form.Check
        inline
        type="radio"
        id="signup-age-13-or-older"
        label={t('signUp.age.over13')}
        value="13_or_older"
        isInvalid={Boolean(error)}
        {...registration}
      />
      {error && (
        <div className="invalid-feedback d-block" id="signup-age-error">
          {error}
        </div>
      )}
      {under13 && (
        <Alert variant="info" className="mt-2 mb-0 small" role="status">
          {t('signUp.age.under13Help')}
        </Alert>
      )}
    </fieldset>
  );
}
