// The district admin's sign-in settings: the district's SSO connection (issuer, client, secret,
// allowed domains, button name, on/off) and password sign-in on/off. Included by the admin page's
// sign-in section.
import { useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import { serverMessageOr } from '../../api/apiError';
import type { ApiError } from '../../api/apiError';
import { PageSpinner } from '../../components/PageSpinner';
import { useToast } from '../../components/toast/useToast';
import {
  useGetSsoSettingsQuery,
  useRemoveSsoConnectionMutation,
  useSaveSsoConnectionMutation,
  useSetPasswordSignInMutation,
  type SsoSettings as Settings,
} from './ssoApi';
import { useTranslation } from '../../i18n/react';

function fieldErrors(error: unknown): Record<string, string> {
  return (error as { fields?: Record<string, string> } | undefined)?.fields ?? {};
}

function ConnectionForm({ settings }: { settings: Settings }) {
  const current = settings.connection;
  const [issuer, setIssuer] = useState(current?.issuer ?? '');
  const [clientId, setClientId] = useState(current?.clientId ?? '');
  const [clientSecret, setClientSecret] = useState('');
  const [displayName, setDisplayName] = useState(current?.displayName ?? '');
  const [domains, setDomains] = useState<string[]>(current?.emailDomains ?? settings.districtDomains);
  const [enabled, setEnabled] = useState(current?.enabled ?? true);
  const [save, saving] = useSaveSsoConnectionMutation();
  const [remove, removing] = useRemoveSsoConnectionMutation();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const toast = useToast();
  const { t } = useTranslation('admin');

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setErrors({});
    try {
      await save({
        issuer,
        clientId,
        ...(clientSecret ? { clientSecret } : {}),
        emailDomains: domains,
        displayName,
        enabled,
      }).unwrap();
      setClientSecret('');
      toast({ title: t('sso.saved'), description: t('sso.savedText') });
    } catch (error) {
      setErrors(fieldErrors(error));
      toast({
        title: t('sso.notSaved'),
        description: serverMessageOr(error as ApiError, t('sso.saveFailed')),
        variant: 'destructive',
      });
    }
  };

  const onRemove = async () => {
    try {
      await remove().unwrap();
      toast({ title: t('sso.removed'), description: t('sso.removedText') });
    } catch (error) {
      toast({
        title: t('sso.notRemoved'),
        description: serverMessageOr(error as ApiError, t('sso.removeFailed')),
        variant: 'destructive',
      });
    }
  };

  const toggleDomain = (domain: string, on: boolean) =>
    setDomains((list) => (on ? [...new Set([...list, domain])] : list.filter((d) => d !== domain)));

  return (
    <Form noValidate onSubmit={onSubmit} aria-label={t('sso.form')}>
      <Form.Group className="mb-3" controlId="sso-issuer">
        <Form.Label>{t('sso.issuer')}</Form.Label>
        <Form.Control
          value={issuer}
          onChange={(e) => setIssuer(e.target.value)}
          placeholder="https://accounts.google.com"
          isInvalid={Boolean(errors.issuer)}
        />
        <Form.Control.Feedback type="invalid">{errors.issuer}</Form.Control.Feedback>
        <Form.Text>{t('sso.issuerHelp')}</Form.Text>
      </Form.Group>
      <Form.Group className="mb-3" controlId="sso-client-id">
        <Form.Label>{t('sso.clientId')}</Form.Label>
        <Form.Control
          value={clientId}
          onChange={(e) => setClientId(e.target.value)}
          isInvalid={Boolean(errors.clientId)}
        />
        <Form.Control.Feedback type="invalid">{errors.clientId}</Form.Control.Feedback>
      </Form.Group>
      <Form.Group className="mb-3" controlId="sso-client-secret">
        <Form.Label>{t('sso.clientSecret')}</Form.Label>
        <Form.Control
          type="password"
          autoComplete="off"
          value={clientSecret}
          onChange={(e) => setClientSecret(e.target.value)}
          placeholder={current?.hasSecret ? t('sso.secretStored') : ''}
          isInvalid={Boolean(errors.clientSecret)}
        />
        <Form.Control.Feedback type="invalid">{errors.clientSecret}</Form.Control.Feedback>
      </Form.Group>
      <Form.Group className="mb-3" controlId="sso-display-name">
        <Form.Label>{t('sso.buttonText')}</Form.Label>
        <Form.Control
          value={displayName}
          onChange={(e) => setDisplayName(e.target.value)}
          placeholder={t('sso.buttonPlaceholder')}
          maxLength={100}
        />
        <Form.Text>{t('sso.buttonHelp')}</Form.Text>
      </Form.Group>
      <fieldset className="mb-3">
        <legend className="form-label fs-6">{t('sso.domains')}</legend>
        {settings.districtDomains.map((domain) => (
          <Form.Check
            key={domain}
            id={`sso-domain-${domain}`}
            label={domain}
            checked={domains.includes(domain)}
            onChange={(e) => toggleDomain(domain, e.target.checked)}
          />
        ))}
        {errors.emailDomains && <div className="invalid-feedback d-block">{errors.emailDomains}</div>}
      </fieldset>
      <Form.Check
        type="switch"
        id="sso-enabled"
        className="mb-3"
        label={t('sso.enabled')}
        checked={enabled}
        onChange={(e) => setEnabled(e.target.checked)}
      />
      {current && (
        <Alert variant="light" className="small">
          <div>{t('sso.kind', { kind: t(`sso.kinds.${current.kind}`) })}</div>
          <div>
            {t('sso.redirectUri')} <code>{settings.redirectUri}</code>
          </div>
          <div>
            {t('sso.initiateUri')} <code>{current.initiateLoginUri}</code>
          </div>
        </Alert>
      )}
      {!current && (
        <p className="small text-body-secondary">
          {t('sso.registerUri')} <code>{settings.redirectUri}</code>
        </p>
      )}
      <div className="d-flex gap-2">
        <Button type="submit" disabled={saving.isLoading}>
          {saving.isLoading ? t('sso.checking') : t('sso.save')}
        </Button>
        {current && (
          <Button variant="outline-danger" type="button" onClick={onRemove} disabled={removing.isLoading}>
            {t('sso.remove')}
          </Button>
        )}
      </div>
    </Form>
  );
}

function PasswordSignIn({ settings }: { settings: Settings }) {
  const [setPasswordSignIn, { isLoading }] = useSetPasswordSignInMutation();
  const toast = useToast();
  const { t } = useTranslation('admin');
  const canTurnOff = Boolean(settings.connection?.enabled);
  return (
    <>
      <Form.Check
        type="switch"
        id="password-sign-in"
        label={t('sso.password.label')}
        checked={settings.passwordSignIn}
        disabled={isLoading || (settings.passwordSignIn && !canTurnOff)}
        onChange={async (e) => {
          try {
            await setPasswordSignIn({ passwordSignIn: e.target.checked }).unwrap();
          } catch (error) {
            toast({
              title: t('sso.password.notChanged'),
              description: serverMessageOr(error as ApiError, t('sso.password.failed')),
              variant: 'destructive',
            });
          }
        }}
      />
      {settings.passwordSignIn && !canTurnOff && (
        <p className="small text-body-secondary mb-0">{t('sso.password.needsSso')}</p>
      )}
    </>
  );
}

/** The sign-in settings of the admin's own district. */
export function SsoSettings() {
  const { t } = useTranslation('admin');
  const { data, isLoading, error } = useGetSsoSettingsQuery();
  if (isLoading) return <PageSpinner />;
  if (error || !data) return <Alert variant="danger">{serverMessageOr(error as ApiError, t('sso.loadFailed'))}</Alert>;
  return (
    <div className="d-flex flex-column gap-3" data-testid="sso-settings">
      <Card className="shadow-sm">
        <Card.Body>
          <Card.Title as="h2" className="h5">
            {t('sso.title')}
          </Card.Title>
          <ConnectionForm key={data.connection?.updatedAt ?? 'new'} settings={data} />
        </Card.Body>
      </Card>
      <Card className="shadow-sm">
        <Card.Body>
          <Card.Title as="h2" className="h5">
            {t('sso.password.title')}
          </Card.Title>
          <PasswordSignIn settings={data} />
        </Card.Body>
      </Card>
    </div>
  );
}
