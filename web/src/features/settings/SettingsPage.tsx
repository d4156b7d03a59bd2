// /settings: account form (PUT /api/auth/user: names at once; a new email with the current password,
// used once the link mailed to it is opened) and the preference switches of the user's role,
// saved per user (a student has no submissions to hear about, a teacher nothing to be reminded of).
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Row from 'react-bootstrap/Row';
import { isApiError, serverMessageOr } from '../../api/apiError';
import { PageSpinner } from '../../components/PageSpinner';
import { TextField } from '../../components/TextField';
import { useToast } from '../../components/toast/useToast';
import { useUpdatePreferencesMutation, useUpdateUserMutation, type UpdateUserRequest } from '../../session/authApi';
import { useAuth } from '../../session/useAuth';
import { DEFAULT_PREFERENCES, navRole, type Preferences, type User } from '../../session/user';
import { useTranslation } from '../../i18n/react';
import { i18n } from '../../i18n/i18n';
import { withStrong } from '../../i18n/rich';

interface Switch {
  key: keyof Preferences;
  label: string;
  description: string;
}

function switchesFor(user: User): Switch[] {
  const student = navRole(user) === 'student';
  return [
    {
      key: 'emailNotifications',
      label: i18n.t('common:settings.emailNotifications'),
      description: i18n.t(
        student ? 'common:settings.emailNotificationsStudent' : 'common:settings.emailNotificationsTeacher',
      ),
    },
    ...(student
      ? [
          {
            key: 'assessmentReminders' as const,
            label: i18n.t('common:settings.reminders'),
            description: i18n.t('common:settings.remindersHelp'),
          },
        ]
      : [
          {
            key: 'studentSubmissions' as const,
            label: i18n.t('common:settings.submissions'),
            description: i18n.t('common:settings.submissionsHelp'),
          },
        ]),
    { key: 'darkMode', label: i18n.t('common:settings.darkMode'), description: i18n.t('common:settings.darkModeHelp') },
  ];
}

type AccountValues = UpdateUserRequest & { currentPassword: string };

const sameAddress = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

function AccountForm({ user }: { user: User }) {
  const { t } = useTranslation('common');
  const toast = useToast();
  const [updateUser, { isLoading }] = useUpdateUserMutation();
  const { register, handleSubmit, reset, watch, setError, formState } = useForm<AccountValues>({
    defaultValues: { firstName: user.firstName, lastName: user.lastName, email: user.email, currentPassword: '' },
  });
  // A new email needs the current password and waits for the link mailed to it (PUT /api/auth/user).
  const emailChanges = !sameAddress(watch('email') ?? '', user.email);
  const [pending, setPending] = useState<string | null | undefined>(user.pendingEmail);

  const onSubmit = handleSubmit(async ({ currentPassword, ...values }) => {
    try {
      const updated = await updateUser(emailChanges ? { ...values, currentPassword } : values).unwrap();
      reset({ firstName: updated.firstName, lastName: updated.lastName, email: updated.email, currentPassword: '' });
      setPending(updated.pendingEmail);
      if (emailChanges && updated.pendingEmail) {
        toast({
          title: t('settings.confirmEmail'),
          description: t('settings.confirmEmailHelp', { pending: updated.pendingEmail, email: updated.email }),
        });
      } else {
        toast({ title: t('settings.updated'), description: t('settings.updatedHelp') });
      }
    } catch (error) {
      const fields = isApiError(error) ? error.fields : undefined;
      if (fields?.currentPassword) setError('currentPassword', { message: fields.currentPassword });
      if (fields?.email) setError('email', { message: fields.email });
      toast({
        title: t('language.failedTitle'),
        description: serverMessageOr(error, t('settings.failed')),
        variant: 'destructive',
      });
    }
  });

  return (
    <Card className="shadow-sm h-100">
      <Card.Body className="p-4">
        <Card.Title as="h2" className="h5 mb-3">
          {t('settings.account')}
        </Card.Title>
        <Form noValidate onSubmit={onSubmit} aria-label={t('settings.accountForm')}>
          <Row>
            <Col sm={6}>
              <TextField
                id="settings-first-name"
                label={t('settings.firstName')}
                autoComplete="given-name"
                registration={register('firstName')}
              />
            </Col>
            <Col sm={6}>
              <TextField
                id="settings-last-name"
                label={t('settings.lastName')}
                autoComplete="family-name"
                registration={register('lastName')}
              />
            </Col>
          </Row>
          <TextField
            id="settings-email"
            label={t('email')}
            type="email"
            autoComplete="email"
            registration={register('email')}
            error={formState.errors.email?.message}
          />
          {pending && !emailChanges && (
            <Alert variant="info" className="small py-2" data-testid="pending-email">
              {withStrong(t('settings.pending', { pending, email: user.email }))}
            </Alert>
          )}
          {emailChanges && (
            <>
              <Form.Text as="p" className="d-block mb-2" id="settings-email-change-help">
                {t('settings.emailChangeHelp', { email: user.email })}
              </Form.Text>
              <TextField
                id="settings-current-password"
                label={t('settings.currentPassword')}
                type="password"
                autoComplete="current-password"
                registration={register('currentPassword')}
                error={formState.errors.currentPassword?.message}
              />
            </>
          )}
          <Button type="submit" disabled={isLoading}>
            {isLoading ? t('settings.saving') : t('settings.save')}
          </Button>
        </Form>
      </Card.Body>
    </Card>
  );
}

function PreferenceSwitches({ user }: { user: User }) {
  const { t } = useTranslation('common');
  const toast = useToast();
  const [updatePreferences] = useUpdatePreferencesMutation();
  // A switch waits for its own save before it can change again, so its saves reach the server in order.
  const [saving, setSaving] = useState<ReadonlySet<keyof Preferences>>(new Set());
  const preferences: Preferences = { ...DEFAULT_PREFERENCES, ...user.preferences };

  const toggle = async (key: keyof Preferences, value: boolean) => {
    setSaving((keys) => new Set(keys).add(key));
    try {
      await updatePreferences({ [key]: value }).unwrap();
    } catch (error) {
      toast({
        title: t('language.failedTitle'),
        description: serverMessageOr(error, t('settings.failed')),
        variant: 'destructive',
      });
    } finally {
      setSaving((keys) => {
        const rest = new Set(keys);
        rest.delete(key);
        return rest;
      });
    }
  };

  return (
    <Card className="shadow-sm h-100">
      <Card.Body className="p-4">
        <Card.Title as="h2" className="h5 mb-3">
          {t('settings.preferences')}
        </Card.Title>
        {switchesFor(user).map(({ key, label, description }) => (
          <Form.Group key={key} className="mb-3" controlId={`pref-${key}`}>
            <Form.Check
              type="switch"
              label={label}
              checked={preferences[key]}
              disabled={saving.has(key)}
              aria-describedby={`pref-${key}-help`}
              onChange={(event) => void toggle(key, event.currentTarget.checked)}
            />
            <Form.Text id={`pref-${key}-help`} className="ms-5">
              {description}
            </Form.Text>
          </Form.Group>
        ))}
      </Card.Body>
    </Card>
  );
}

export function SettingsPage() {
  const { user } = useAuth();
  const { t } = useTranslation('common');
  if (!user) return <PageSpinner />;
  return (
    <>
      <h1 className="h2 mb-4">{t('settings.title')}</h1>
      <Row className="g-4">
        <Col lg={7}>
          <AccountForm user={user} />
        </Col>
        <Col lg={5}>
          <PreferenceSwitches user={user} />
        </Col>
      </Row>
    </>
  );
}
