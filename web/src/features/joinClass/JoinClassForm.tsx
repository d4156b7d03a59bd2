// The 'Class Code' form (joinSchema.ts): uppercase as typed, 6–8 characters.
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { useMessage } from '../../i18n/messages';
import { joinSchema, type JoinFormValues } from './joinSchema';
import { useTranslation } from '../../i18n/react';

interface JoinClassFormProps {
  pending: boolean;
  onJoin: (joinCode: string) => void | Promise<void>;
}

export function JoinClassForm({ pending, onJoin }: JoinClassFormProps) {
  const { t } = useTranslation('common');
  const message = useMessage();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<JoinFormValues>({ resolver: zodResolver(joinSchema), defaultValues: { joinCode: '' } });
  const field = register('joinCode');
  const error = message(errors.joinCode?.message);

  return (
    <Form noValidate aria-label={t('join.form')} onSubmit={handleSubmit((values) => onJoin(values.joinCode))}>
      <Form.Group className="mb-3" controlId="joinCode">
        <Form.Label>{t('join.code')}</Form.Label>
        <Form.Control
          {...field}
          onChange={(event) => {
            const input = event.target as HTMLInputElement;
            const upper = input.value.toUpperCase();
            if (upper !== input.value) {
              const { selectionStart, selectionEnd } = input;
              input.value = upper;
              input.setSelectionRange(selectionStart, selectionEnd);
            }
            return field.onChange(event);
          }}
          placeholder={t('join.placeholder')}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          className="text-center fs-5 font-monospace text-uppercase"
          isInvalid={Boolean(error)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'joinCode-error' : undefined}
        />
        {error && (
          <Form.Control.Feedback type="invalid" id="joinCode-error">
            {error}
          </Form.Control.Feedback>
        )}
      </Form.Group>
      <Button type="submit" className="w-100" disabled={pending}>
        {pending ? t('join.submitting') : t('join.submit')}
      </Button>
    </Form>
  );
}
