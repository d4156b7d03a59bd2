import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import type { z } from 'zod/mini';
import { useToast } from '../../components/toast/useToast';
import { serverMessageOr } from '../../api/apiError';
import { useCompleteGoogleSignupMutation } from '../../session/authApi';
import { googleRoleSchema } from './authSchemas';
import { RoleChoice } from './RoleChoice';
import { useTranslation } from '../../i18n/react';

/** First Google sign-in (`?google_signup=true`): choose teacher or student, default student. */
export function GoogleRoleStep() {
  const { t } = useTranslation('auth');
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<z.input<typeof googleRoleSchema>, unknown, z.output<typeof googleRoleSchema>>({
    resolver: zodResolver(googleRoleSchema),
    defaultValues: { role: 'student' },
  });
  const [complete, { isLoading, isSuccess }] = useCompleteGoogleSignupMutation();
  const toast = useToast();

  const onSubmit = handleSubmit(async (values) => {
    try {
      await complete(values).unwrap();
    } catch (error) {
      toast({
        title: t('google.failed'),
        description: serverMessageOr(error, t('common:tryAgain')),
        variant: 'destructive',
      });
      return;
    }
    toast({ title: t('google.done') });
    window.location.assign('/');
  });

  return (
    <Card className="shadow-sm">
      <Card.Body className="p-4">
        <h2 className="h4 mb-1">{t('google.title')}</h2>
        <p className="text-body-secondary">{t('google.intro')}</p>
        <Form noValidate onSubmit={onSubmit} aria-label={t('google.form')}>
          <RoleChoice
            idPrefix="google"
            legend={t('signUp.iAm')}
            registration={register('role')}
            error={errors.role?.message}
          />
          <Button type="submit" className="w-100" disabled={isLoading || isSuccess}>
            {isLoading ? t('google.submitting') : t('google.submit')}
          </Button>
        </Form>
      </Card.Body>
    </Card>
  );
}
