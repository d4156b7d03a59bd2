// A student's age band on the sign-up form (docs/adr/015-students-without-email.md): a student under
// 13 is told to ask their teacher for a login card (the server refuses their email unless it is
// their school's address).
import Alert from 'react-bootstrap/Alert';
import Form from 'react-bootstrap/Form';
import type { UseFormRegisterReturn } from 'react-hook-form';

export function AgeBandChoice({
  registration,
  error,
  under13,
}: {
  registration: UseFormRegisterReturn;
  error?: string | undefined;
  under13: boolean;
}) {
  return (
    <fieldset className="mb-3" aria-describedby={error ? 'signup-age-error' : undefined}>
      <legend className="form-label fs-6">How old are you?</legend>
      <Form.Check
        inline
        type="radio"
        id="signup-age-under-13"
        label="Under 13"
        value="under_13"
        isInvalid={Boolean(error)}
        {...registration}
      />
      <Form.Check
        inline
        type="radio"
        id="signup-age-13-or-older"
        label="13 or older"
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
          Ask your teacher for a login card. You can sign in with your class code and a picture instead of an email.
          Only sign up here with an email address your school gave you.
        </Alert>
      )}
    </fieldset>
  );
}
