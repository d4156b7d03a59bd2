// The class page's LMS roster line (docs/adr/014-lti.md, NRPS): shown only for a class linked to an
// LMS course; the course's learners are synced after each instructor launch, and here on demand,
// with what was added, kept and skipped and why.
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import { serverMessageOr } from '../../api/apiError';
import { formatDate } from './classStats';
import { useGetLtiRosterQuery, useSyncLtiRosterMutation, type LtiRosterSync } from './lmsRosterApi';

const REASONS: Record<LtiRosterSync['courses'][number]['skipped'][number]['reason'], string> = {
  inactive: 'inactive in the LMS',
  deleted: 'removed in the LMS',
  not_a_learner: 'not a learner (instructors join at their own launch)',
  no_user_id: 'no LMS user id',
  account_not_student: 'their Checkpoint account is not a student’s',
  account_refused: 'their account could not be used',
  class_refused: 'the class refused them',
};

export function LmsRosterSection({ classId }: { classId: string }) {
  const { data } = useGetLtiRosterQuery(classId);
  const [sync, syncing] = useSyncLtiRosterMutation();
  const courses = data?.courses ?? [];
  if (courses.length === 0) return null;
  const available = courses.some((c) => c.rosterAvailable);
  const result = syncing.data?.courses;
  return (
    <Card className="shadow-sm mb-4" as="section" aria-label="LMS roster">
      <Card.Body className="d-flex flex-column gap-2">
        <div className="d-flex flex-wrap align-items-center gap-3">
          <div className="flex-grow-1">
            <strong>LMS course:</strong> {courses.map((c) => c.contextTitle ?? c.contextId).join(', ')}
            {courses.map((c) =>
              c.lastSyncedAt ? (
                <div key={c.contextId} className="small text-body-secondary">
                  Last roster sync {formatDate(c.lastSyncedAt)}
                  {c.lastOutcome &&
                    (c.lastOutcome.ok
                      ? `: ${c.lastOutcome.added} added, ${c.lastOutcome.kept} kept, ${c.lastOutcome.skipped} skipped`
                      : ': failed')}
                </div>
              ) : null,
            )}
            {!available && (
              <div className="small text-body-secondary">
                The LMS has not offered this course’s roster: learners join when they launch.
              </div>
            )}
          </div>
          <Button
            variant="outline-primary"
            size="sm"
            disabled={!available || syncing.isLoading}
            onClick={() => void sync(classId)}
          >
            {syncing.isLoading ? 'Syncing…' : 'Sync roster from LMS'}
          </Button>
        </div>
        {syncing.error && (
          <Alert variant="danger" className="mb-0">
            {serverMessageOr(syncing.error, 'The roster could not be synced')}
          </Alert>
        )}
        {result && (
          <div role="status" className="small">
            {result.map((c) => (
              <div key={c.contextId}>
                {c.added.length} added, {c.kept.length} already in the class, {c.skipped.length} skipped
                {c.skipped.length > 0 && (
                  <ul className="mb-0">
                    {c.skipped.map((s) => (
                      <li key={`${s.lmsUserId}-${s.reason}`}>
                        {s.name ?? s.lmsUserId}: {REASONS[s.reason]}
                      </li>
                    ))}
                  </ul>
                )}
              </div>
            ))}
          </div>
        )}
      </Card.Body>
    </Card>
  );
}
