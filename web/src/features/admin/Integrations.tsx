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
  useGetLtiScoreFailuresQuery,
  useRemoveLtiRegistrationMutation,
  useUpdateLtiRegistrationMutation,
  type LtiRegistration,
  type LtiRegistrationLink,
  type LtiRegistrationList,
} from './integrationsApi';
import { formatDateTime } from '../../i18n/format';
import { useTranslation } from '../../i18n/react';

/** The registration's fields; each one's label and hint are admin:lti.fields.<name>.label / .hint. */
const FIELDS = ['issuer', 'clientId', 'deploymentIds', 'jwksUrl', 'authorizationUrl', 'tokenUrl'] as const;
type FieldName = (typeof FIELDS)[number];
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
  const { t } = useTranslation('admin');
  const toast = useToast();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      toast({ title: t('common:copied'), description: t('lti.copied', { label }) });
    } catch {
      toast({
        title: t('common:toast.error'),
        description: t('lti.copyFailed', { label, value }),
        variant: 'destructive',
      });
    }
  };
  return (
    <div className="d-flex align-items-center gap-2 mb-2">
      <span className="text-body-secondary small" style={{ minWidth: '9rem' }}>
        {label}
      </span>
      <code className="text-break flex-grow-1 text-body">{value}</code>
      <Button
        size="sm"
        variant="outline-secondary"
        onClick={() => void copy()}
        aria-label={t('lti.copyLabel', { label })}
      >
        {t('lti.copy')}
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
  const { t } = useTranslation('admin');

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
      toast({ title: t('lti.saved'), description: t('lti.savedText') });
      onDone();
    } catch (error) {
      setErrors(fieldErrors(error));
      toast({
        title: t('lti.notSaved'),
        description: serverMessageOr(error as ApiError, t('lti.saveFailed')),
        variant: 'destructive',
      });
    }
  };

  const busy = creating.isLoading || updating.isLoading;
  return (
    <Form noValidate onSubmit={onSubmit} aria-label={current ? t('lti.editForm') : t('lti.newForm')}>
      {FIELDS.map((f) => (
        <Form.Group className="mb-3" controlId={`lti-${f}`} key={f}>
          <Form.Label>{t(`lti.fields.${f}.label`)}</Form.Label>
          {f === 'deploymentIds' ? (
            <Form.Control
              as="textarea"
              rows={2}
              value={values[f]}
              onChange={(e) => setValues((v) => ({ ...v, [f]: e.target.value }))}
              isInvalid={Boolean(errors[f])}
            />
          ) : (
            <Form.Control
              value={values[f]}
              onChange={(e) => setValues((v) => ({ ...v, [f]: e.target.value }))}
              isInvalid={Boolean(errors[f])}
            />
          )}
          <Form.Control.Feedback type="invalid">{errors[f]}</Form.Control.Feedback>
          <Form.Text>{t(`lti.fields.${f}.hint`)}</Form.Text>
        </Form.Group>
      ))}
      <Form.Group className="mb-3" controlId="lti-adminRoleFromLms">
        <Form.Check
          type="checkbox"
          label={t('lti.adminRole')}
          checked={adminRole}
          onChange={(e) => setAdminRole(e.target.checked)}
        />
        <Form.Text>{t('lti.adminRoleHelp')}</Form.Text>
      </Form.Group>
      <div className="d-flex gap-2">
        <Button type="submit" disabled={busy}>
          {current ? t('lti.saveChanges') : t('lti.add')}
        </Button>
        <Button type="button" variant="outline-secondary" onClick={onDone}>
          {t('common:cancel')}
        </Button>
      </div>
    </Form>
  );
}

function DynamicRegistration() {
  const [createLink, { isLoading }] = useCreateLtiRegistrationLinkMutation();
  const [link, setLink] = useState<LtiRegistrationLink>();
  const toast = useToast();
  const { t } = useTranslation('admin');
  const onCreate = async () => {
    try {
      setLink(await createLink().unwrap());
    } catch (error) {
      toast({
        title: t('lti.dynamic.noLink'),
        description: serverMessageOr(error as ApiError, t('lti.dynamic.failed')),
        variant: 'destructive',
      });
    }
  };
  return (
    <>
      <p className="small text-body-secondary">{t('lti.dynamic.text')}</p>
      {link ? (
        <Alert variant="success" data-testid="lti-registration-link">
          <CopyField label={t('lti.dynamic.url')} value={link.url} />
          <div className="small">
            {t('lti.dynamic.expires', {
              date: formatDateTime(link.expiresAt, {
                year: 'numeric',
                month: 'numeric',
                day: 'numeric',
                hour: 'numeric',
                minute: '2-digit',
                second: '2-digit',
              }),
            })}
          </div>
        </Alert>
      ) : null}
      <Button variant="outline-primary" onClick={() => void onCreate()} disabled={isLoading}>
        {t('lti.dynamic.create')}
      </Button>
    </>
  );
}

function Registrations({ data }: { data: LtiRegistrationList }) {
  const [editing, setEditing] = useState<LtiRegistration | 'new'>();
  const [remove, removing] = useRemoveLtiRegistrationMutation();
  const toast = useToast();
  const { t } = useTranslation('admin');
  const onRemove = async (r: LtiRegistration) => {
    if (!window.confirm(t('lti.removeAsk', { issuer: r.issuer, clientId: r.clientId }))) return;
    try {
      await remove(r.id).unwrap();
      toast({ title: t('lti.removed'), description: t('lti.removedText') });
    } catch (error) {
      toast({
        title: t('lti.notRemoved'),
        description: serverMessageOr(error as ApiError, t('lti.removeFailed')),
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
        <p className="text-body-secondary">{t('lti.none')}</p>
      ) : (
        <Table responsive size="sm" aria-label={t('lti.table')}>
          <thead>
            <tr>
              <th scope="col">{t('lti.fields.issuer.label')}</th>
              <th scope="col">{t('lti.fields.clientId.label')}</th>
              <th scope="col">{t('lti.deployments')}</th>
              <th scope="col">
                <span className="visually-hidden">{t('lti.actions')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {data.registrations.map((r) => (
              <tr key={r.id}>
                <td className="text-break">{r.issuer}</td>
                <td className="text-break">{r.clientId}</td>
                <td>{r.deploymentIds.join(', ') || t('lti.noDeployments')}</td>
                <td className="text-end text-nowrap">
                  <Button
                    size="sm"
                    variant="link"
                    onClick={() => setEditing(r)}
                    aria-label={t('lti.editLabel', { issuer: r.issuer, clientId: r.clientId })}
                  >
                    {t('lti.edit')}
                  </Button>
                  <Button
                    size="sm"
                    variant="link"
                    className="text-danger"
                    disabled={removing.isLoading}
                    onClick={() => void onRemove(r)}
                    aria-label={t('lti.removeLabel', { issuer: r.issuer, clientId: r.clientId })}
                  >
                    {t('lti.remove')}
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
      <Button variant="outline-primary" onClick={() => setEditing('new')}>
        {t('lti.addByHand')}
      </Button>
    </>
  );
}

/** The district's scores the LMS never took (AGS): which assessment, whose, and why. */
function ScoreFailures() {
  const { t } = useTranslation('admin');
  const { data } = useGetLtiScoreFailuresQuery();
  if (!data) return null;
  if (data.scores.length === 0) return <p className="small text-body-secondary mb-0">{t('lti.scores.none')}</p>;
  return (
    <ul className="list-unstyled small mb-0" data-testid="score-failures">
      {data.scores.map((s) => (
        <li key={s.id} className="py-1 border-bottom">
          {t('lti.scores.line', {
            assessment: s.assessmentId,
            user: s.lmsUserId,
            attempts: t('lti.scores.attempts', { count: s.attempts }),
          })}
          {s.lastError && <div className="text-body-secondary">{s.lastError}</div>}
        </li>
      ))}
    </ul>
  );
}

/** The LMS integrations of the admin's own district. */
export function Integrations() {
  const { t } = useTranslation('admin');
  const { data, isLoading, error } = useGetLtiRegistrationsQuery();
  if (isLoading) return <PageSpinner />;
  if (error || !data) return <Alert variant="danger">{serverMessageOr(error as ApiError, t('lti.loadFailed'))}</Alert>;
  return (
    <div className="d-flex flex-column gap-3" data-testid="integrations">
      <Card className="shadow-sm">
        <Card.Body>
          <Card.Title as="h2" className="h5">
            {t('lti.tool.title')}
          </Card.Title>
          <p className="small text-body-secondary">{t('lti.tool.text')}</p>
          <CopyField label={t('lti.tool.loginUrl')} value={data.tool.loginUrl} />
          <CopyField label={t('lti.tool.redirectUrl')} value={data.tool.launchUrl} />
          <CopyField label={t('lti.tool.jwksUrl')} value={data.tool.jwksUrl} />
        </Card.Body>
      </Card>
      <Card className="shadow-sm">
        <Card.Body>
          <Card.Title as="h2" className="h5">
            {t('lti.dynamic.title')}
          </Card.Title>
          <DynamicRegistration />
        </Card.Body>
      </Card>
      <Card className="shadow-sm">
        <Card.Body>
          <Card.Title as="h2" className="h5">
            {t('lti.registered')}
          </Card.Title>
          <Registrations data={data} />
        </Card.Body>
      </Card>
      <Card className="shadow-sm">
        <Card.Body>
          <Card.Title as="h2" className="h5">
            {t('lti.scores.title')}
          </Card.Title>
          <p className="small text-body-secondary">{t('lti.scores.text')}</p>
          <ScoreFailures />
        </Card.Body>
      </Card>
    </div>
  );
}
