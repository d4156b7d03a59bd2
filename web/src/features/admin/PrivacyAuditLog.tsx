// The district's audit log: who read or changed student data and who administered the district
// (invitations, roster imports), in names; filtered by person, kind and dates, paged, as CSV.
import { useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Row from 'react-bootstrap/Row';
import Table from 'react-bootstrap/Table';
import { serverMessageOr } from '../../api/apiError';
import { PageSpinner } from '../../components/PageSpinner';
import { auditArg, auditQuery, useGetAuditQuery, type AuditFilter } from './privacyApi';
import { formatDateTime } from '../../i18n/format';
import { useTranslation } from '../../i18n/react';

const ACTIONS = ['', 'read', 'change', 'export', 'delete'] as const;
/** The roles the log names in the interface's language (admin:audit.role.*); any other is shown as it came. */
const ROLES = new Set(['admin', 'teacher', 'student']);
const KINDS = new Set<string>(ACTIONS.filter(Boolean));

export function PrivacyAuditLog() {
  const { t } = useTranslation('admin');
  const [draft, setDraft] = useState<AuditFilter>({});
  const [filter, setFilter] = useState<AuditFilter>({});
  const [cursors, setCursors] = useState<string[]>([]);
  const cursor = cursors.at(-1);
  const { data, isFetching, error } = useGetAuditQuery(auditArg({ ...filter, ...(cursor ? { cursor } : {}) }));

  function apply(e: FormEvent) {
    e.preventDefault();
    setFilter(draft);
    setCursors([]);
  }

  const csvHref = `/api/district/audit/export.csv${auditQuery(filter) ? `?${auditQuery(filter)}` : ''}`;
  return (
    <Card className="shadow-sm mb-4">
      <Card.Body>
        <Card.Title as="h2" className="h5">
          {t('audit.title')}
        </Card.Title>
        <p className="small text-body-secondary">{t('audit.text')}</p>
        <Form onSubmit={apply} className="mb-3" aria-label={t('audit.filters')}>
          <Row className="g-2">
            <Col md={6}>
              <Form.Control
                aria-label={t('audit.person')}
                placeholder={t('audit.personPlaceholder')}
                value={draft.person ?? ''}
                onChange={(e) => setDraft({ ...draft, person: e.target.value })}
              />
            </Col>
            <Col md={2}>
              <Form.Select
                aria-label={t('audit.action')}
                value={draft.action ?? ''}
                onChange={(e) => setDraft({ ...draft, action: e.target.value as AuditFilter['action'] })}
              >
                {ACTIONS.map((a) => (
                  <option key={a} value={a}>
                    {t(`audit.actions.${a || 'any'}`)}
                  </option>
                ))}
              </Form.Select>
            </Col>
            <Col md={2}>
              <Form.Control
                type="date"
                aria-label={t('audit.from')}
                value={draft.from ?? ''}
                onChange={(e) => setDraft({ ...draft, from: e.target.value })}
              />
            </Col>
            <Col md={2}>
              <Form.Control
                type="date"
                aria-label={t('audit.to')}
                value={draft.to ?? ''}
                onChange={(e) => setDraft({ ...draft, to: e.target.value })}
              />
            </Col>
          </Row>
          <div className="d-flex gap-2 mt-2">
            <Button type="submit" size="sm">
              {t('audit.filter')}
            </Button>
            <Button as="a" href={csvHref} size="sm" variant="outline-secondary" download>
              {t('audit.export')}
            </Button>
          </div>
        </Form>
        {error ? (
          <Alert variant="danger">{serverMessageOr(error, t('audit.loadFailed'))}</Alert>
        ) : !data ? (
          <PageSpinner />
        ) : data.entries.length === 0 ? (
          <p className="text-body-secondary mb-0">{t('audit.none')}</p>
        ) : (
          <>
            <Table size="sm" responsive hover data-testid="audit-table">
              <thead>
                <tr>
                  <th>{t('audit.col.when')}</th>
                  <th>{t('audit.col.what')}</th>
                  <th>{t('audit.col.kind')}</th>
                  <th>{t('audit.col.address')}</th>
                </tr>
              </thead>
              <tbody>
                {data.entries.map((e) => (
                  <tr key={e.id}>
                    <td className="text-nowrap">{formatDateTime(e.at, { dateStyle: 'short', timeStyle: 'medium' })}</td>
                    <td>
                      {e.summary}{' '}
                      <span className="text-body-secondary small">
                        ({ROLES.has(e.actorRole) ? t(`audit.role.${e.actorRole}`) : e.actorRole})
                      </span>
                    </td>
                    <td>{KINDS.has(e.action) ? t(`audit.actions.${e.action}`) : e.action}</td>
                    <td className="small">{e.clientAddress}</td>
                  </tr>
                ))}
              </tbody>
            </Table>
            <div className="d-flex gap-2">
              <Button
                size="sm"
                variant="outline-secondary"
                disabled={cursors.length === 0 || isFetching}
                onClick={() => setCursors(cursors.slice(0, -1))}
              >
                {t('audit.newer')}
              </Button>
              <Button
                size="sm"
                variant="outline-secondary"
                disabled={!data.nextCursor || isFetching}
                onClick={() => data.nextCursor && setCursors([...cursors, data.nextCursor])}
              >
                {t('audit.older')}
              </Button>
            </div>
          </>
        )}
      </Card.Body>
    </Card>
  );
}
