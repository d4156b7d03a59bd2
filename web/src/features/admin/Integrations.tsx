// Admin → Integrations: the district's LMS connections (LTI 1.3, docs/adr/014-lti.md). The URLs
// to give the LMS, each with a copy button; a one-time dynamic registration link (Moodle, Canvas),
// shown once with its expiry; the registrations, added, changed and removed by hand with the
// API's field errors.
import { useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import Table from 'react-bootstrap/Table';
import { serverMessageOr } from '../../api/apiError';
import type { ApiError } from '../../api/apiError';
import { PageSpinner } from '../../components/PageSpinner';
import { useToast } from '../../components/toast/useToast';
import {
  useCreateLtiRegistrationLinkMutation,
  useCreateLtiRegistrationMutation,
  useGetLtiRegistrationsQuery,
  useRemoveLtiRegistrationMutation,
  useUpdateLtiRegistrationMutation,
  type LtiRegistration,
  type LtiRegistrationLink,
  type LtiRegistrationList,
} from './integrationsApi';

const FIELDS = [
  { name: 'issuer', label: 'Issuer', hint: 'The platform’s issuer, e.g. https://canvas.instructure.com' },
  { name: 'clientId', label: 'Client ID', hint: 'The client id the LMS gave Checkpoint' },
  {
    name: 'deploymentIds',
    label: 'Deployment IDs',
    hint: 'One or more, separated by commas or new lines',
  },
  { name: 'jwksUrl', label: 'Platform JWKS URL', hint: 'The LMS’s public keys (keyset URL)' },
  { name: 'authorizationUrl', label: 'Authorization URL', hint: 'The LMS’s OIDC authentication request URL' },
  { name: 'tokenUrl', label: 'Token URL', hint: 'The LMS’s OAuth 2 access token URL' },
] as const;
type FieldName = (typeof FIELDS)[number]['name'];
type Values = Record<FieldName, string>;

/** The API's 400/409 field errors, by form field (`deploymentIds.1` is the deployment ids field). */
function fieldErrors(error: unknown): Partial<Record<FieldName, string>> {
  const fields = (error as { fields?: Record<string, string> } | undefined)?.fields ?? {};
  const out: Partial<Record<FieldName, string>> = {};
  for (const [key, message] of Object.entries(fields)) {
    const name = key.split('.')[0] as FieldName;
    out[name] ??= message;
  }
  return out;
}

function CopyField({ label, value }: { label: string; value: string }) {
  const toast = useToast();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      toast({ title: 'Copied!', description: `${label} copied to clipboard` });
    } catch {
      toast({ title: 'Error', description: `Could not copy. The ${label} is ${value}.`, variant: 'destructive' });
    }
  };
  return (
    <div className="d-flex align-items-center gap-2 mb-2">
      <span className="text-body-secondary small" style={{ minWidth: '9rem' }}>
        {label}
      </span>
      <code className="text-break flex-grow-1 text-body">{value}</code>
      <Button size="sm" variant="outline-secondary" onClick={() => void copy()} aria-label={`Copy ${label}`}>
        Copy
      </Button>
    </div>
  );
}

function RegistrationForm({ current, onDone }: { current?: LtiRegistration; onDone: () => void }) {
  const [values, setValues] = useState<Values>({
    issuer: current?.issuer ?? '',
    clientId: current?.clientId ?? '',
    deploymentIds: current?.deploymentIds.join('\n') ?? '',
    jwksUrl: current?.jwksUrl ?? '',
    authorizationUrl: current?.authorizationUrl ?? '',
    tokenUrl: current?.tokenUrl ?? '',
  });
  // Kept as it is unless changed here: a save without it would turn it off.
  const [adminRole, setAdminRole] = useState(current?.adminRoleFromLms ?? false);
  const [errors, setErrors] = useState<Partial<Record<FieldName, string>>>({});
  const [create, creating] = useCreateLtiRegistrationMutation();
  const [update, updating] = useUpdateLtiRegistrationMutation();
  const toast = useToast();

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setErrors({});
    const body = {
      issuer: values.issuer.trim(),
      clientId: values.clientId.trim(),
      deploymentIds: values.deploymentIds
        .split(/[,\n]/)
        .map((id) => id.trim())
        .filter(Boolean),
      jwksUrl: values.jwksUrl.trim(),
      authorizationUrl: values.authorizationUrl.trim(),
      tokenUrl: values.tokenUrl.trim(),
      adminRoleFromLms: adminRole,
    };
    try {
      if (current) await update({ id: current.id, body }).unwrap();
      else await create(body).unwrap();
      toast({ title: 'Saved', description: 'The LMS registration was saved.' });
      onDone();
    } catch (error) {
      setErrors(fieldErrors(error));
      toast({
        title: 'Not saved',
        description: serverMessageOr(error as ApiError, 'Could not save the registration'),
        variant: 'destructive',
      });
    }
  };

  const busy = creating.isLoading || updating.isLoading;
  return (
    <Form noValidate onSubmit={onSubmit} aria-label={current ? 'Edit LMS registration' : 'New LMS registration'}>
      {FIELDS.map((f) => (
        <Form.Group className="mb-3" controlId={`lti-${f.name}`} key={f.name}>
          <Form.Label>{f.label}</Form.Label>
          {f.name === 'deploymentIds' ? (
            <Form.Control
              as="textarea"
              rows={2}
              value={values[f.name]}
              onChange={(e) => setValues((v) => ({ ...v, [f.name]: e.target.value }))}
              isInvalid={Boolean(errors[f.name])}
            />
          ) : (
            <Form.Control
              value={values[f.name]}
              onChange={(e) => setValues((v) => ({ ...v, [f.name]: e.target.value }))}
              isInvalid={Boolean(errors[f.name])}
            />
          )}
          <Form.Control.Feedback type="invalid">{errors[f.name]}</Form.Control.Feedback>
          <Form.Text>{f.hint}</Form.Text>
        </Form.Group>
      ))}
      <Form.Group className="mb-3" controlId="lti-adminRoleFromLms">
        <Form.Check
          type="checkbox"
          label="The LMS’s administrators become district admins here"
          checked={adminRole}
          onChange={(e) => setAdminRole(e.target.checked)}
        />
        <Form.Text>Off: an LMS administrator who launches Checkpoint is a teacher.</Form.Text>
      </Form.Group>
      <div className="d-flex gap-2">
        <Button type="submit" disabled={busy}>
          {current ? 'Save changes' : 'Add registration'}
        </Button>
        <Button type="button" variant="outline-secondary" onClick={onDone}>
          Cancel
        </Button>
      </div>
    </Form>
  );
}

function DynamicRegistration() {
  const [createLink, { isLoading }] = useCreateLtiRegistrationLinkMutation();
  const [link, setLink] = useState<LtiRegistrationLink>();
  const toast = useToast();
  const onCreate = async () => {
    try {
      setLink(await createLink().unwrap());
    } catch (error) {
      toast({
        title: 'No link',
        description: serverMessageOr(error as ApiError, 'Could not create the link'),
        variant: 'destructive',
      });
    }
  };
  return (
    <>
      <p className="small text-body-secondary">
        Moodle and Canvas can register Checkpoint themselves: create a link, and your LMS admin pastes it where the LMS
        asks for a tool&apos;s registration URL (Moodle: Site administration → Plugins → Manage tools → Tool URL;
        Canvas: Admin → Developer Keys → + LTI Registration). The link works once.
      </p>
      {link ? (
        <Alert variant="success" data-testid="lti-registration-link">
          <CopyField label="Registration URL" value={link.url} />
          <div className="small">Shown only now. Used once; expires {new Date(link.expiresAt).toLocaleString()}.</div>
        </Alert>
      ) : null}
      <Button variant="outline-primary" onClick={() => void onCreate()} disabled={isLoading}>
        Create a dynamic registration link
      </Button>
    </>
  );
}

function Registrations({ data }: { data: LtiRegistrationList }) {
  const [editing, setEditing] = useState<LtiRegistration | 'new'>();
  const [remove, removing] = useRemoveLtiRegistrationMutation();
  const toast = useToast();
  const onRemove = async (r: LtiRegistration) => {
    if (!window.confirm(`Remove the registration of ${r.issuer} (client ID ${r.clientId})? Launches from it stop.`))
      return;
    try {
      await remove(r.id).unwrap();
      toast({ title: 'Removed', description: 'The LMS registration was removed.' });
    } catch (error) {
      toast({
        title: 'Not removed',
        description: serverMessageOr(error as ApiError, 'Could not remove the registration'),
        variant: 'destructive',
      });
    }
  };
  if (editing)
    return (
      <RegistrationForm
        key={editing === 'new' ? 'new' : editing.id}
        current={editing === 'new' ? undefined : editing}
        onDone={() => setEditing(undefined)}
      />
    );
  return (
    <>
      {data.registrations.length === 0 ? (
        <p className="text-body-secondary">No LMS is connected yet.</p>
      ) : (
        <Table responsive size="sm" aria-label="LMS registrations">
          <thead>
            <tr>
              <th scope="col">Issuer</th>
              <th scope="col">Client ID</th>
              <th scope="col">Deployments</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {data.registrations.map((r) => (
              <tr key={r.id}>
                <td className="text-break">{r.issuer}</td>
                <td className="text-break">{r.clientId}</td>
                <td>{r.deploymentIds.join(', ') || 'None yet: edit to add the one your LMS shows'}</td>
                <td className="text-end text-nowrap">
                  <Button
                    size="sm"
                    variant="link"
                    onClick={() => setEditing(r)}
                    aria-label={`Edit ${r.issuer} ${r.clientId}`}
                  >
                    Edit
                  </Button>
                  <Button
                    size="sm"
                    variant="link"
                    className="text-danger"
                    disabled={removing.isLoading}
                    onClick={() => void onRemove(r)}
                    aria-label={`Remove ${r.issuer} ${r.clientId}`}
                  >
                    Remove
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
      <Button variant="outline-primary" onClick={() => setEditing('new')}>
        Add a registration by hand
      </Button>
    </>
  );
}

/** The LMS integrations of the admin's own district. */
export function Integrations() {
  const { data, isLoading, error } = useGetLtiRegistrationsQuery();
  if (isLoading) return <PageSpinner />;
  if (error || !data)
    return <Alert variant="danger">{serverMessageOr(error as ApiError, 'Failed to load the LMS registrations')}</Alert>;
  return (
    <div className="d-flex flex-column gap-3" data-testid="integrations">
      <Card className="shadow-sm">
        <Card.Body>
          <Card.Title as="h2" className="h5">
            What to give your LMS
          </Card.Title>
          <p className="small text-body-secondary">
            When your LMS admin adds Checkpoint as an LTI 1.3 tool by hand, they need these URLs.
          </p>
          <CopyField label="Login URL" value={data.tool.loginUrl} />
          <CopyField label="Redirect URL" value={data.tool.launchUrl} />
          <CopyField label="Public keyset URL" value={data.tool.jwksUrl} />
        </Card.Body>
      </Card>
      <Card className="shadow-sm">
        <Card.Body>
          <Card.Title as="h2" className="h5">
            Dynamic registration
          </Card.Title>
          <DynamicRegistration />
        </Card.Body>
      </Card>
      <Card className="shadow-sm">
        <Card.Body>
          <Card.Title as="h2" className="h5">
            Registered platforms
          </Card.Title>
          <Registrations data={data} />
        </Card.Body>
      </Card>
    </div>
  );
}
