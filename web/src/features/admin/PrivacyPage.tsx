// The admin's Privacy section (docs/adr/009): how long student activity is kept, a student's
// export (JSON or CSV) and deletion with the services' progress, the district's deletion (its name
// typed to confirm), and the audit log.
import { useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import InputGroup from 'react-bootstrap/InputGroup';
import ListGroup from 'react-bootstrap/ListGroup';
import { serverMessageOr } from '../../api/apiError';
import { PageSpinner } from '../../components/PageSpinner';
import { useGetDistrictUsersQuery, type DistrictUser } from './districtApi';
import { PrivacyAuditLog } from './PrivacyAuditLog';
import {
  useDeleteDistrictMutation,
  useDeleteStudentMutation,
  useGetClassJoinPolicyQuery,
  useGetPrivacySettingsQuery,
  useGetRequestStatusQuery,
  useRequestExportMutation,
  useSetClassJoinPolicyMutation,
  useSetRetentionMutation,
  type PrivacyRequestStatus,
} from './privacyApi';
import { useTranslation } from '../../i18n/react';

function RetentionCard() {
  const { t } = useTranslation('admin');
  const { data, error, isLoading } = useGetPrivacySettingsQuery();
  const [setRetention, saving] = useSetRetentionMutation();
  const [days, setDays] = useState<string | undefined>(undefined);
  const value = days ?? (data?.retentionDays != null ? String(data.retentionDays) : '');

  async function save(e: FormEvent) {
    e.preventDefault();
    await setRetention({ retentionDays: value.trim() === '' ? null : Number(value) })
      .unwrap()
      .catch(() => undefined);
    setDays(undefined);
  }

  return (
    <Card className="shadow-sm mb-4">
      <Card.Body>
        <Card.Title as="h2" className="h5">
          {t('privacy.retention.title')}
        </Card.Title>
        {isLoading ? (
          <PageSpinner />
        ) : error ? (
          <Alert variant="danger">{serverMessageOr(error, t('privacy.retention.loadFailed'))}</Alert>
        ) : (
          <Form onSubmit={save}>
            <Form.Label htmlFor="retention-days">{t('privacy.retention.label')}</Form.Label>
            <InputGroup style={{ maxWidth: 320 }}>
              <Form.Control
                id="retention-days"
                type="number"
                min={30}
                max={3650}
                placeholder={t('privacy.retention.keep')}
                value={value}
                onChange={(e) => setDays(e.target.value)}
              />
              <Button type="submit" disabled={saving.isLoading}>
                {t('privacy.save')}
              </Button>
            </InputGroup>
            {saving.error ? (
              <Alert variant="danger" className="mt-2 mb-0">
                {serverMessageOr(saving.error, t('privacy.retention.saveFailed'))}
              </Alert>
            ) : null}
          </Form>
        )}
      </Card.Body>
    </Card>
  );
}

/** Whether the district's students may join other districts' classes by code (their name only is shown there). */
function ClassJoinsCard() {
  const { t } = useTranslation('admin');
  const { data, error, isLoading } = useGetClassJoinPolicyQuery();
  const [setPolicy, saving] = useSetClassJoinPolicyMutation();
  return (
    <Card className="shadow-sm mb-4">
      <Card.Body>
        <Card.Title as="h2" className="h5">
          {t('privacy.joins.title')}
        </Card.Title>
        {isLoading ? (
          <PageSpinner />
        ) : error || !data ? (
          <Alert variant="danger">{serverMessageOr(error, t('privacy.joins.loadFailed'))}</Alert>
        ) : (
          <>
            <Form.Check
              type="switch"
              id="students-own-classes-only"
              label={t('privacy.joins.label')}
              checked={data.studentsOwnClassesOnly}
              disabled={saving.isLoading}
              onChange={(e) => {
                void setPolicy({ studentsOwnClassesOnly: e.target.checked })
                  .unwrap()
                  .catch(() => undefined);
              }}
            />
            <Form.Text>{t('privacy.joins.help')}</Form.Text>
            {saving.error ? (
              <Alert variant="danger" className="mt-2 mb-0">
                {serverMessageOr(saving.error, t('privacy.joins.saveFailed'))}
              </Alert>
            ) : null}
          </>
        )}
      </Card.Body>
    </Card>
  );
}

function RequestProgress({ request, studentId }: { request: PrivacyRequestStatus; studentId?: string }) {
  const { t } = useTranslation('admin');
  const { data } = useGetRequestStatusQuery(request.requestId, { pollingInterval: 1500, skipPollingIfUnfocused: true });
  const s = data ?? request;
  const base = studentId ? `/api/district/students/${studentId}/exports/${s.requestId}/download` : undefined;
  return (
    <div className="small mt-2" data-testid="privacy-request">
      <span>
        {t(s.kind === 'export' ? 'privacy.request.exported' : 'privacy.request.deleted', {
          status: t(s.complete ? 'privacy.request.done' : 'privacy.request.inProgress'),
          answered: s.answered,
          expected: s.expected,
        })}
      </span>
      {s.kind === 'export' && s.complete && base ? (
        <span className="ms-2">
          <a href={`${base}?format=zip`} download>
            {t('privacy.request.document')}
          </a>{' '}
          ·{' '}
          <a href={`${base}?format=html`} target="_blank" rel="noreferrer">
            {t('privacy.request.view')}
          </a>{' '}
          ·{' '}
          <a href={`${base}?format=json`} download>
            JSON
          </a>{' '}
          ·{' '}
          <a href={`${base}?format=csv`} download>
            CSV
          </a>
        </span>
      ) : null}
    </div>
  );
}

/** A deletion under way: the student has left the list; the services' progress stays in view. */
interface Deletion {
  name: string;
  studentId: string;
  request: PrivacyRequestStatus;
}

function StudentRow({ user, onDeleted }: { user: DistrictUser; onDeleted: (d: Deletion) => void }) {
  const [requestExport, exporting] = useRequestExportMutation();
  const [deleteStudent, deleting] = useDeleteStudentMutation();
  const [request, setRequest] = useState<PrivacyRequestStatus | undefined>();
  const [confirming, setConfirming] = useState(false);
  const failed = exporting.error ?? deleting.error;
  const { t } = useTranslation('admin');
  return (
    <ListGroup.Item>
      <div className="d-flex align-items-center gap-2">
        <div className="me-auto">
          {user.firstName} {user.lastName} <span className="text-body-secondary small">{user.email}</span>
        </div>
        <Button
          size="sm"
          variant="outline-primary"
          disabled={exporting.isLoading}
          onClick={() =>
            void requestExport(user.id)
              .unwrap()
              .then(setRequest, () => undefined)
          }
        >
          {t('privacy.students.export')}
        </Button>
        {confirming ? (
          <Button
            size="sm"
            variant="danger"
            disabled={deleting.isLoading}
            onClick={() =>
              void deleteStudent(user.id)
                .unwrap()
                .then(
                  (r) =>
                    onDeleted({ name: `${user.firstName} ${user.lastName}`.trim(), studentId: user.id, request: r }),
                  () => undefined,
                )
            }
          >
            {t('privacy.students.deleteForGood')}
          </Button>
        ) : (
          <Button size="sm" variant="outline-danger" onClick={() => setConfirming(true)}>
            {t('privacy.students.delete')}
          </Button>
        )}
      </div>
      {failed ? (
        <div className="small text-danger mt-1">{serverMessageOr(failed, t('privacy.students.requestFailed'))}</div>
      ) : null}
      {request ? <RequestProgress request={request} studentId={user.id} /> : null}
    </ListGroup.Item>
  );
}

function StudentsCard() {
  const [search, setSearch] = useState('');
  const [query, setQuery] = useState('');
  const { data, error, isFetching } = useGetDistrictUsersQuery({ role: 'student', search: query, limit: 20 });
  const [deletions, setDeletions] = useState<Deletion[]>([]);
  const { t } = useTranslation('admin');
  return (
    <Card className="shadow-sm mb-4">
      <Card.Body>
        <Card.Title as="h2" className="h5">
          {t('privacy.students.title')}
        </Card.Title>
        <p className="small text-body-secondary">{t('privacy.students.text')}</p>
        <Form
          onSubmit={(e) => {
            e.preventDefault();
            setQuery(search);
          }}
        >
          <InputGroup className="mb-3" style={{ maxWidth: 420 }}>
            <Form.Control
              aria-label={t('privacy.students.search')}
              placeholder={t('privacy.students.searchPlaceholder')}
              value={search}
              onChange={(e) => setSearch(e.target.value)}
            />
            <Button type="submit" variant="outline-secondary" disabled={isFetching}>
              {t('privacy.students.searchButton')}
            </Button>
          </InputGroup>
        </Form>
        {error ? (
          <Alert variant="danger">{serverMessageOr(error, t('privacy.students.loadFailed'))}</Alert>
        ) : !data ? (
          <PageSpinner />
        ) : data.users.length === 0 ? (
          <p className="text-body-secondary mb-0">{t('privacy.students.none')}</p>
        ) : (
          <ListGroup>
            {data.users.map((u) => (
              <StudentRow key={u.id} user={u} onDeleted={(d) => setDeletions((all) => [...all, d])} />
            ))}
          </ListGroup>
        )}
        {deletions.map((d) => (
          <div key={d.request.requestId} className="mt-2" data-testid="privacy-deletion">
            <span className="small fw-semibold">
              {d.name ? t('privacy.students.deleted', { name: d.name }) : t('privacy.students.deletedUnnamed')}
            </span>
            <RequestProgress request={d.request} />
          </div>
        ))}
      </Card.Body>
    </Card>
  );
}

function DistrictDeletionCard({ districtName }: { districtName: string }) {
  const [confirmName, setConfirmName] = useState('');
  const [deleteDistrict, state] = useDeleteDistrictMutation();
  const { t } = useTranslation('admin');
  return (
    <Card className="shadow-sm mb-4 border-danger">
      <Card.Body>
        <Card.Title as="h2" className="h5 text-danger">
          {t('privacy.district.title')}
        </Card.Title>
        <p className="small">{t('privacy.district.text', { name: districtName })}</p>
        {state.isSuccess ? (
          <Alert variant="success">{t('privacy.district.deleting')}</Alert>
        ) : (
          <Form
            onSubmit={(e) => {
              e.preventDefault();
              void deleteDistrict({ confirmName })
                .unwrap()
                .catch(() => undefined);
            }}
          >
            <Form.Label htmlFor="confirm-district">{t('privacy.district.confirm', { name: districtName })}</Form.Label>
            <InputGroup style={{ maxWidth: 420 }}>
              <Form.Control
                id="confirm-district"
                value={confirmName}
                onChange={(e) => setConfirmName(e.target.value)}
              />
              <Button type="submit" variant="danger" disabled={confirmName.trim() !== districtName || state.isLoading}>
                {t('privacy.district.delete')}
              </Button>
            </InputGroup>
            {state.error ? (
              <div className="small text-danger mt-1">{serverMessageOr(state.error, t('privacy.district.failed'))}</div>
            ) : null}
          </Form>
        )}
      </Card.Body>
    </Card>
  );
}

export function PrivacyPage() {
  const { t } = useTranslation('admin');
  const { data } = useGetPrivacySettingsQuery();
  return (
    <>
      <h1 className="h2 mb-1">{t('privacy.title')}</h1>
      <p className="text-body-secondary mb-4">{t('privacy.intro')}</p>
      <RetentionCard />
      <ClassJoinsCard />
      <StudentsCard />
      <PrivacyAuditLog />
      {data ? <DistrictDeletionCard districtName={data.districtName} /> : null}
    </>
  );
}

export default PrivacyPage;
