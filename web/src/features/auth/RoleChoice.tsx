import Form from 'react-bootstrap/Form';
import { useMessage } from '../../i18n/messages';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { useTranslation } from '../../i18n/react';

interface RoleChoiceProps {
  idPrefix: string;
  legend: string;
  registration: UseFormRegisterReturn;
  error?: string | undefined;
}

/** Teacher or student, as radio buttons in a labelled group. */
export function RoleChoice({ idPrefix, legend, registration, error: rawError }: RoleChoiceProps) {
  const error = useMessage()(rawError);
  const { t } = useTranslation('common');
  return (
    <fieldset className="mb-3" aria-describedby={error ? `${idPrefix}-role-error` : undefined}>
      <legend className="form-label fs-6">{legend}</legend>
      <Form.Check
        inline
        type="radio"
        id={`${idPrefix}-role-teacher`}
        label={t('role.teacher')}
        value="teacher"
        isInvalid={Boolean(error)}
        {...registration}
      />
      <Form.Check
        inline
        type="radio"
        id={`${idPrefix}-role-student`}
        label={t('role.student')}
        value="student"
        isInvalid={Boolean(error)}
        {...registration}
      />
      {error && (
        <div className="invalid-feedback d-block" id={`${idPrefix}-role-error`}>
          {error}
        </div>
      )}
    </fieldset>
  );
}
