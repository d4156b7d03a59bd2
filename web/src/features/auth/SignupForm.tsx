import { useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { TextField } from '../../components/TextField';
import { useToast } from '../../components/toast/useToast';
import { serverMessageOr } from '../../api/apiError';
import { useSignupMutation } from '../../session/authApi';
import { signupSchema, type AuthVariant, type SignupFormValues } from './authSchemas';
import { AgeBandChoice } from './AgeBandChoice';
import { RoleChoice } from './RoleChoice';
import type { SignupRole } from '../../session/user';
import { useTranslation } from '../../i18n/react';
import { withStrong } from '../../i18n/rich';

interface SignupFormProps {
  variant: AuthVariant;
  /** Preselected role; simple-login has none so the user must pick one. */
  defaultRole: SignupRole | '';
}

/**
 * A password sign-up creates no account: the server mails a link that creates it when opened
 * (VerifyEmailPage), or a note when the address has an account already, and answers the same 202
 * either way, so the form says "Check your email" whatever the address (docs/security.md).
 */
export function SignupForm({ variant, defaultRole }: SignupFormProps) {
  const { t, i18n } = useTranslation('auth');
  const withConfirm = variant !== 'simple-login';
  const schema = useMemo(() => signupSchema(variant), [variant]);
  const {
    register,
    handleSubmit,
    watch,
    formState: { errors },
  } = useForm<SignupFormValues, unknown, ReturnType<typeof schema.parse>>({
    resolver: zodResolver(schema),
    defaultValues: {
      firstName: '',
      lastName: '',
      email: '',
      password: '',
      confirmPassword: '',
      role: defaultRole,
      ageBand: '',
    },
  });
  const [signup, { isLoading }] = useSignupMutation();
  const toast = useToast();
  const [linkSentTo, setLinkSentTo] = useState<string>();

  const onSubmit = handleSubmit(async ({ confirmPassword: _confirm, ageBand, ...fields }) => {
    // Only a student says an age band. The mail (and the account it makes) speak the form's language.
    const payload = {
      ...fields,
      ...(fields.role === 'student' && ageBand ? { ageBand } : {}),
      locale: i18n.resolvedLanguage,
    };
    try {
      setLinkSentTo((await signup(payload).unwrap()).email);
    } catch (error) {
      toast({
        title: t('signUp.failed'),
        description: serverMessageOr(error, t('common:tryAgain')),
        variant: 'destructive',
      });
    }
  });

  if (linkSentTo) {
    return (
      <Alert variant="success" role="status" aria-label={t('signUp.checkEmail')}>
        <Alert.Heading as="h2" className="h5">
          {t('signUp.checkEmail')}
        </Alert.Heading>
        <p className="mb-0">{withStrong(t('signUp.linkSent', { email: linkSentTo }))}</p>
      </Alert>
    );
  }

  return (
    <Form noValidate onSubmit={onSubmit} aria-label={t('signUp.form')}>
      <div className="row">
        <div className="col-sm-6">
          <TextField
            id="signup-first-name"
            label={t('signUp.firstName')}
            autoComplete="given-name"
            registration={register('firstName')}
            error={errors.firstName?.message}
          />
        </div>
        <div className="col-sm-6">
          <TextField
            id="signup-last-name"
            label={t('signUp.lastName')}
            autoComplete="family-name"
            registration={register('lastName')}
            error={errors.lastName?.message}
          />
        </div>
      </div>
      <TextField
        id="signup-email"
        label={t('common:email')}
        type="email"
        autoComplete="email"
        registration={register('email')}
        error={errors.email?.message}
      />
      <TextField
        id="signup-password"
        label={t('common:password')}
        type="password"
        autoComplete="new-password"
        registration={register('password')}
        error={errors.password?.message}
      />
      {withConfirm && (
        <TextField
          id="signup-confirm-password"
          label={t('common:confirmPassword')}
          type="password"
          autoComplete="new-password"
          registration={register('confirmPassword')}
          error={errors.confirmPassword?.message}
        />
      )}
      <RoleChoice
        idPrefix="signup"
        legend={t('signUp.iAm')}
        registration={register('role')}
        error={errors.role?.message}
      />
      {watch('role') === 'student' && (
        <AgeBandChoice
          registration={register('ageBand')}
          error={errors.ageBand?.message}
          under13={watch('ageBand') === 'under_13'}
        />
      )}
      <Button type="submit" className="w-100" disabled={isLoading}>
        {isLoading ? t('signUp.submitting') : t('signUp.submit')}
      </Button>
    </Form>
  );
}
