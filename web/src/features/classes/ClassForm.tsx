// The create / edit class form in both variants: 'dashboard' (subject from 7 options, period
// optional) and 'full' (classes page and edit: name, subject as free text and period required).
import { useMemo } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { TextField } from '../../components/TextField';
import { useTranslation } from '../../i18n/react';
import { useMessage } from '../../i18n/messages';
import { classSchema, SUBJECT_OPTIONS, type ClassFormValues, type ClassFormVariant } from './classSchemas';

interface ClassFormProps {
  variant: ClassFormVariant;
  idPrefix: string;
  defaultValues?: ClassFormValues;
  submitLabel: string;
  pendingLabel: string;
  pending: boolean;
  onSubmit: (values: ClassFormValues) => void | Promise<void>;
  onCancel?: () => void;
}

const EMPTY: ClassFormValues = { name: '', subject: '', period: '' };

export function ClassForm({
  variant,
  idPrefix,
  defaultValues = EMPTY,
  submitLabel,
  pendingLabel,
  pending,
  onSubmit,
  onCancel,
}: ClassFormProps) {
  const schema = useMemo(() => classSchema(variant), [variant]);
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<ClassFormValues>({ resolver: zodResolver(schema), defaultValues });
  const { t } = useTranslation('teacher');
  const subjectError = useMessage()(errors.subject?.message);

  return (
    <Form noValidate aria-label={submitLabel} onSubmit={handleSubmit(onSubmit)}>
      <TextField
        id={`${idPrefix}-name`}
        label={t('classes.form.name')}
        placeholder={t('classes.form.namePlaceholder')}
        registration={register('name')}
        error={errors.name?.message}
      />
      {variant === 'dashboard' ? (
        <Form.Group className="mb-3" controlId={`${idPrefix}-subject`}>
          <Form.Label>{t('classes.form.subject')}</Form.Label>
          <Form.Select
            {...register('subject')}
            isInvalid={Boolean(subjectError)}
            aria-invalid={subjectError ? true : undefined}
            aria-describedby={subjectError ? `${idPrefix}-subject-error` : undefined}
          >
            <option value="">{t('classes.form.selectSubject')}</option>
            {SUBJECT_OPTIONS.map((subject) => (
              <option key={subject} value={subject}>
                {subject}
              </option>
            ))}
          </Form.Select>
          {subjectError && (
            <Form.Control.Feedback type="invalid" id={`${idPrefix}-subject-error`}>
              {subjectError}
            </Form.Control.Feedback>
          )}
        </Form.Group>
      ) : (
        <TextField
          id={`${idPrefix}-subject`}
          label={t('classes.form.subject')}
          placeholder={t('classes.form.subjectPlaceholder')}
          registration={register('subject')}
          error={subjectError}
        />
      )}
      <TextField
        id={`${idPrefix}-period`}
        label={variant === 'dashboard' ? t('classes.form.periodOptional') : t('classes.form.period')}
        placeholder={t('classes.form.periodPlaceholder')}
        registration={register('period')}
        error={errors.period?.message}
      />
      <div className="d-flex justify-content-end gap-2">
        {onCancel && (
          <Button variant="outline-secondary" onClick={onCancel} disabled={pending}>
            {t('common:cancel')}
          </Button>
        )}
        <Button type="submit" disabled={pending}>
          {pending ? pendingLabel : submitLabel}
        </Button>
      </div>
    </Form>
  );
}
