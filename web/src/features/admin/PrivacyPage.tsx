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

function RetentionCard() {
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
          Retention
        </Card.Title>
        {isLoading ? (
          <PageSpinner />
        ) : error ? (
          <Alert variant="danger">{serverMessageOr(error, 'Failed to load the privacy settings')}</Alert>
        ) : (
          <Form onSubmit={save}>
            <Form.Label htmlFor="retention-days">
              Keep student activity (answers, results, practice) for this many days; empty keeps it.
            </Form.Label>
            <InputGroup style={{ maxWidth: 320 }}>
              <Form.Control
                id="retention-days"
                type="number"
                min={30}
                max={3650}
                placeholder="Keep"
                value={value}
                onChange={(e) => setDays(e.target.value)}
              />
              <Button type="submit" disabled={saving.isLoading}>
                Save
              </Button>
            </InputGroup>
            {saving.error ? (
              <Alert variant="danger" className="mt-2 mb-0">
                {serverMessageOr(saving.error, 'Could not save the retention period')}
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
  const { data, error, isLoading } = useGetClassJoinPolicyQuery();
  const [setPolicy, saving] = useSetClassJoinPolicyMutation();
  return (
    <Card className="shadow-sm mb-4">
      <Card.Body>
        <Card.Title as="h2" className="h5">
          Classes of other districts
        </Card.Title>
        {isLoading ? (
          <PageSpinner />
        ) : error || !data ? (
          <Alert variant="danger">{serverMessageOr(error, 'Failed to load the class join setting')}</Alert>
        ) : (
          <>
            <Form.Check
              type="switch"
              id="students-own-classes-only"
              label="Students may join only this district's classes"
              checked={data.studentsOwnClassesOnly}
              disabled={saving.isLoading}
              onChange={(e) => {
                void setPolicy({ studentsOwnClassesOnly: e.target.checked })
                  .unwrap()
                  .catch(() => undefined);
              }}
            />
            <Form.Text>
              When off, a student may join another district&apos;s class by its code; that class&apos;s teacher sees the
              student&apos;s name only, never their e-mail. Classes already joined stay.
            </Form.Text>
            {saving.error ? (
              <Alert variant="danger" className="mt-2 mb-0">
                {serverMessageOr(saving.error, 'Could not save the class join setting')}
              </Alert>
            ) : null}
          </>
        )}
      </Card.Body>
    </Card>
  );
}

function RequestProgress({ request, studentId }: { request: PrivacyRequestStatus; studentId?: string }) {
  const { data } = useGetRequestStatusQuery(request.requestId, { pollingInterval: 1500, skipPollingIfUnfocused: true });
  const s = data ?? request;
  const verb = s.kind === 'export' ? 'exported' : 'deleted';
  const base = studentId ? `/api/district/students/${studentId}/exports/${s.requestId}/download` : undefined;
  return (
    <div className="small mt-2" data-testid="privacy-request">
      <span>
        {s.complete ? 'Done' : 'In progress'}: {verb} in {s.answered} of {s.expected} services
      </span>
      {s.kind === 'export' && s.complete && base ? (
        <span className="ms-2">
          <a href={`${base}?format=zip`} download>
            Document for the family (zip)
          </a>{' '}
          ·{' '}
          <a href={`${base}?format=html`} target="_blank" rel="noreferrer">
            View
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
          Export data
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
            Delete for good
          </Button>
        ) : (
          <Button size="sm" variant="outline-danger" onClick={() => setConfirming(true)}>
            Delete student
          </Button>
        )}
      </div>
      {failed ? <div className="small text-danger mt-1">{serverMessageOr(failed, 'The request failed')}</div> : null}
      {request ? <RequestProgress request={request} studentId={user.id} /> : null}
    </ListGroup.Item>
  );
}

function StudentsCard() {
  const [search, setSearch] = useState('');
  const [query, setQuery] = useState('');
  const { data, error, isFetching } = useGetDistrictUsersQuery({ role: 'student', search: query, limit: 20 });
  const [deletions, setDeletions] = useState<Deletion[]>([]);
  return (
    <Card className="shadow-sm mb-4">
      <Card.Body>
        <Card.Title as="h2" className="h5">
          A student’s data
        </Card.Title>
        <p className="small text-body-secondary">
          Export everything Checkpoint holds about a student, or delete the student and all their data in every service.
        </p>
        <Form
          onSubmit={(e) => {
            e.preventDefault();
            setQuery(search);
          }}
        >
          <InputGroup className="mb-3" style={{ maxWidth: 420 }}>
            <Form.Control
              aria-label="Search students"
              placeholder="Name or email"
              value={search}
              onChange={(e) => setSearch(e.target.value)}
            />
            <Button type="submit" variant="outline-secondary" disabled={isFetching}>
              Search
            </Button>
          </InputGroup>
        </Form>
        {error ? (
          <Alert variant="danger">{serverMessageOr(error, 'Failed to load the students')}</Alert>
        ) : !data ? (
          <PageSpinner />
        ) : data.users.length === 0 ? (
          <p className="text-body-secondary mb-0">No students found.</p>
        ) : (
          <ListGroup>
            {data.users.map((u) => (
              <StudentRow key={u.id} user={u} onDeleted={(d) => setDeletions((all) => [...all, d])} />
            ))}
          </ListGroup>
        )}
        {deletions.map((d) => (
          <div key={d.request.requestId} className="mt-2" data-testid="privacy-deletion">
            <span className="small fw-semibold">{d.name || 'A student'} was deleted from the district.</span>
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
  return (
    <Card className="shadow-sm mb-4 border-danger">
      <Card.Body>
        <Card.Title as="h2" className="h5 text-danger">
          Delete the district
        </Card.Title>
        <p className="small">
          Deletes every account of {districtName} and all their classes, assessments, answers and results in every
          service. This cannot be undone; everyone, you included, is signed out.
        </p>
        {state.isSuccess ? (
          <Alert variant="success">The district is being deleted.</Alert>
        ) : (
          <Form
            onSubmit={(e) => {
              e.preventDefault();
              void deleteDistrict({ confirmName })
                .unwrap()
                .catch(() => undefined);
            }}
          >
            <Form.Label htmlFor="confirm-district">Type “{districtName}” to confirm</Form.Label>
            <InputGroup style={{ maxWidth: 420 }}>
              <Form.Control
                id="confirm-district"
                value={confirmName}
                onChange={(e) => setConfirmName(e.target.value)}
              />
              <Button type="submit" variant="danger" disabled={confirmName.trim() !== districtName || state.isLoading}>
                Delete district
              </Button>
            </InputGroup>
            {state.error ? (
              <div className="small text-danger mt-1">
                {serverMessageOr(state.error, 'Could not delete the district')}
              </div>
            ) : null}
          </Form>
        )}
      </Card.Body>
    </Card>
  );
}

export function PrivacyPage() {
  const { data } = useGetPrivacySettingsQuery();
  return (
    <>
      <h1 className="h2 mb-1">Privacy</h1>
      <p className="text-body-secondary mb-4">Student data: retention, export, deletion and who accessed it</p>
      <RetentionCard />
      <ClassJoinsCard />
      <StudentsCard />
      <PrivacyAuditLog />
      {data ? <DistrictDeletionCard districtName={data.districtName} /> : null}
    </>
  );
}

export default PrivacyPage;
