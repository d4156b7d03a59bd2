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

const KIND_TEXT = {
  google: 'Google Workspace (accounts must be managed by your domains)',
  entra: 'Microsoft Entra ID (accounts of your directory only)',
  generic: 'OpenID Connect provider (e.g. Clever, ClassLink)',
} as const;

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
      toast({ title: 'Saved', description: 'The sign-in connection was checked with the provider and saved.' });
    } catch (error) {
      setErrors(fieldErrors(error));
      toast({
        title: 'Not saved',
        description: serverMessageOr(error as ApiError, 'Could not save the connection'),
        variant: 'destructive',
      });
    }
  };

  const onRemove = async () => {
    try {
      await remove().unwrap();
      toast({ title: 'Removed', description: 'The sign-in connection was removed.' });
    } catch (error) {
      toast({
        title: 'Not removed',
        description: serverMessageOr(error as ApiError, 'Could not remove the connection'),
        variant: 'destructive',
      });
    }
  };

  const toggleDomain = (domain: string, on: boolean) =>
    setDomains((list) => (on ? [...new Set([...list, domain])] : list.filter((d) => d !== domain)));

  return (
    <Form noValidate onSubmit={onSubmit} aria-label="SSO connection">
      <Form.Group className="mb-3" controlId="sso-issuer">
        <Form.Label>Issuer</Form.Label>
        <Form.Control
          value={issuer}
          onChange={(e) => setIssuer(e.target.value)}
          placeholder="https://accounts.google.com"
          isInvalid={Boolean(errors.issuer)}
        />
        <Form.Control.Feedback type="invalid">{errors.issuer}</Form.Control.Feedback>
        <Form.Text>
          Google: https://accounts.google.com · Microsoft: https://login.microsoftonline.com/&lt;directory id&gt;/v2.0 ·
          Clever: https://clever.com/oauth · ClassLink: https://launchpad.classlink.com
        </Form.Text>
      </Form.Group>
      <Form.Group className="mb-3" controlId="sso-client-id">
        <Form.Label>Client ID</Form.Label>
        <Form.Control
          value={clientId}
          onChange={(e) => setClientId(e.target.value)}
          isInvalid={Boolean(errors.clientId)}
        />
        <Form.Control.Feedback type="invalid">{errors.clientId}</Form.Control.Feedback>
      </Form.Group>
      <Form.Group className="mb-3" controlId="sso-client-secret">
        <Form.Label>Client secret</Form.Label>
        <Form.Control
          type="password"
          autoComplete="off"
          value={clientSecret}
          onChange={(e) => setClientSecret(e.target.value)}
          placeholder={current?.hasSecret ? 'Stored (encrypted): leave empty to keep it' : ''}
          isInvalid={Boolean(errors.clientSecret)}
        />
        <Form.Control.Feedback type="invalid">{errors.clientSecret}</Form.Control.Feedback>
      </Form.Group>
      <Form.Group className="mb-3" controlId="sso-display-name">
        <Form.Label>Button text</Form.Label>
        <Form.Control
          value={displayName}
          onChange={(e) => setDisplayName(e.target.value)}
          placeholder="Your district's name"
          maxLength={100}
        />
        <Form.Text>Shown as “Continue with …” on the sign-in page.</Form.Text>
      </Form.Group>
      <fieldset className="mb-3">
        <legend className="form-label fs-6">Email domains that sign in through this provider</legend>
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
        label="Enabled"
        checked={enabled}
        onChange={(e) => setEnabled(e.target.checked)}
      />
      {current && (
        <Alert variant="light" className="small">
          <div>Kind: {KIND_TEXT[current.kind]}</div>
          <div>
            Redirect URI to register at the provider: <code>{settings.redirectUri}</code>
          </div>
          <div>
            Initiate login URI (sign-in started from the provider&apos;s portal):{' '}
            <code>{current.initiateLoginUri}</code>
          </div>
        </Alert>
      )}
      {!current && (
        <p className="small text-body-secondary">
          Register this redirect URI at the provider: <code>{settings.redirectUri}</code>
        </p>
      )}
      <div className="d-flex gap-2">
        <Button type="submit" disabled={saving.isLoading}>
          {saving.isLoading ? 'Checking with the provider...' : 'Save connection'}
        </Button>
        {current && (
          <Button variant="outline-danger" type="button" onClick={onRemove} disabled={removing.isLoading}>
            Remove
          </Button>
        )}
      </div>
    </Form>
  );
}

function PasswordSignIn({ settings }: { settings: Settings }) {
  const [setPasswordSignIn, { isLoading }] = useSetPasswordSignInMutation();
  const toast = useToast();
  const canTurnOff = Boolean(settings.connection?.enabled);
  return (
    <>
      <Form.Check
        type="switch"
        id="password-sign-in"
        label="People of the district may sign in with an email and password"
        checked={settings.passwordSignIn}
        disabled={isLoading || (settings.passwordSignIn && !canTurnOff)}
        onChange={async (e) => {
          try {
            await setPasswordSignIn({ passwordSignIn: e.target.checked }).unwrap();
          } catch (error) {
            toast({
              title: 'Not changed',
              description: serverMessageOr(error as ApiError, 'Could not change password sign-in'),
              variant: 'destructive',
            });
          }
        }}
      />
      {settings.passwordSignIn && !canTurnOff && (
        <p className="small text-body-secondary mb-0">
          Password sign-in can be turned off once an enabled SSO connection exists.
        </p>
      )}
    </>
  );
}

/** The sign-in settings of the admin's own district. */
export function SsoSettings() {
  const { data, isLoading, error } = useGetSsoSettingsQuery();
  if (isLoading) return <PageSpinner />;
  if (error || !data)
    return <Alert variant="danger">{serverMessageOr(error as ApiError, 'Failed to load the sign-in settings')}</Alert>;
  return (
    <div className="d-flex flex-column gap-3" data-testid="sso-settings">
      <Card className="shadow-sm">
        <Card.Body>
          <Card.Title as="h2" className="h5">
            Single sign-on
          </Card.Title>
          <ConnectionForm key={data.connection?.updatedAt ?? 'new'} settings={data} />
        </Card.Body>
      </Card>
      <Card className="shadow-sm">
        <Card.Body>
          <Card.Title as="h2" className="h5">
            Password sign-in
          </Card.Title>
          <PasswordSignIn settings={data} />
        </Card.Body>
      </Card>
    </div>
  );
}
