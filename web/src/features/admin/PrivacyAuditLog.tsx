// The district's audit log: who read or changed student data, filtered, paged, exported as CSV.
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

const ACTIONS = ['', 'read', 'change', 'export', 'delete'] as const;

export function PrivacyAuditLog() {
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
          Audit log
        </Card.Title>
        <p className="small text-body-secondary">Who read or changed student data, newest first.</p>
        <Form onSubmit={apply} className="mb-3" aria-label="Audit filters">
          <Row className="g-2">
            <Col md={3}>
              <Form.Control
                aria-label="Actor id"
                placeholder="Actor id"
                value={draft.actor ?? ''}
                onChange={(e) => setDraft({ ...draft, actor: e.target.value })}
              />
            </Col>
            <Col md={3}>
              <Form.Control
                aria-label="Target id"
                placeholder="Student, class or assessment id"
                value={draft.target ?? ''}
                onChange={(e) => setDraft({ ...draft, target: e.target.value })}
              />
            </Col>
            <Col md={2}>
              <Form.Select
                aria-label="Action"
                value={draft.action ?? ''}
                onChange={(e) => setDraft({ ...draft, action: e.target.value as AuditFilter['action'] })}
              >
                {ACTIONS.map((a) => (
                  <option key={a} value={a}>
                    {a || 'Any action'}
                  </option>
                ))}
              </Form.Select>
            </Col>
            <Col md={2}>
              <Form.Control
                type="date"
                aria-label="From"
                value={draft.from ?? ''}
                onChange={(e) => setDraft({ ...draft, from: e.target.value })}
              />
            </Col>
            <Col md={2}>
              <Form.Control
                type="date"
                aria-label="To"
                value={draft.to ?? ''}
                onChange={(e) => setDraft({ ...draft, to: e.target.value })}
              />
            </Col>
          </Row>
          <div className="d-flex gap-2 mt-2">
            <Button type="submit" size="sm">
              Filter
            </Button>
            <Button as="a" href={csvHref} size="sm" variant="outline-secondary" download>
              Export CSV
            </Button>
          </div>
        </Form>
        {error ? (
          <Alert variant="danger">{serverMessageOr(error, 'Failed to load the audit log')}</Alert>
        ) : !data ? (
          <PageSpinner />
        ) : data.entries.length === 0 ? (
          <p className="text-body-secondary mb-0">No entries.</p>
        ) : (
          <>
            <Table size="sm" responsive hover data-testid="audit-table">
              <thead>
                <tr>
                  <th>When</th>
                  <th>Who</th>
                  <th>Action</th>
                  <th>What</th>
                  <th>Targets</th>
                  <th>Address</th>
                </tr>
              </thead>
              <tbody>
                {data.entries.map((e) => (
                  <tr key={e.id}>
                    <td>{new Date(e.at).toLocaleString()}</td>
                    <td>
                      {e.actorName ?? e.actorId ?? 'unknown'}{' '}
                      <span className="text-body-secondary">({e.actorRole})</span>
                    </td>
                    <td>{e.action}</td>
                    <td>
                      <code>{e.resource}</code>
                    </td>
                    <td className="small">{e.targetIds.join(', ')}</td>
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
                Newer
              </Button>
              <Button
                size="sm"
                variant="outline-secondary"
                disabled={!data.nextCursor || isFetching}
                onClick={() => data.nextCursor && setCursors([...cursors, data.nextCursor])}
              >
                Older
              </Button>
            </div>
          </>
        )}
      </Card.Body>
    </Card>
  );
}
