// The class page's LMS roster line (docs/adr/014-lti.md, NRPS): shown only for a class linked to an
// LMS course; the course's learners are synced after each instructor launch, and here on demand,
// with what was added, kept and skipped and why.
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import { serverMessageOr } from '../../api/apiError';
import { formatDate } from './classStats';
import { useGetLtiRosterQuery, useSyncLtiRosterMutation, type LtiRosterSync } from './lmsRosterApi';
import { useTranslation } from '../../i18n/react';

/** Why a learner was skipped: its key under lmsRoster.reason. */
const REASONS: Record<LtiRosterSync['courses'][number]['skipped'][number]['reason'], string> = {
  inactive: 'inactive',
  deleted: 'deleted',
  not_a_learner: 'notALearner',
  no_user_id: 'noUserId',
  account_not_student: 'accountNotStudent',
  account_refused: 'accountRefused',
  class_refused: 'classRefused',
};

export function LmsRosterSection({ classId }: { classId: string }) {
  const { data } = useGetLtiRosterQuery(classId);
  const [sync, syncing] = useSyncLtiRosterMutation();
  const { t } = useTranslation('teacher');
  const courses = data?.courses ?? [];
  if (courses.length === 0) return null;
  const available = courses.some((c) => c.rosterAvailable);
  const result = syncing.data?.courses;
  return (
    <Card className="shadow-sm mb-4" as="section" aria-label={t('lmsRoster.label')}>
      <Card.Body className="d-flex flex-column gap-2">
        <div className="d-flex flex-wrap align-items-center gap-3">
          <div className="flex-grow-1">
            <strong>{t('lmsRoster.course')}</strong> {courses.map((c) => c.contextTitle ?? c.contextId).join(', ')}
            {courses.map((c) =>
              c.lastSyncedAt ? (
                <div key={c.contextId} className="small text-body-secondary">
                  {t('lmsRoster.lastSync', { date: formatDate(c.lastSyncedAt) })}
                  {c.lastOutcome &&
                    (c.lastOutcome.ok
                      ? t('lmsRoster.lastOutcome', {
                          added: c.lastOutcome.added,
                          kept: c.lastOutcome.kept,
                          skipped: c.lastOutcome.skipped,
                        })
                      : t('lmsRoster.lastFailed'))}
                </div>
              ) : null,
            )}
            {!available && <div className="small text-body-secondary">{t('lmsRoster.notOffered')}</div>}
          </div>
          <Button
            variant="outline-primary"
            size="sm"
            disabled={!available || syncing.isLoading}
            onClick={() => void sync(classId)}
          >
            {syncing.isLoading ? t('lmsRoster.syncing') : t('lmsRoster.sync')}
          </Button>
        </div>
        {syncing.error && (
          <Alert variant="danger" className="mb-0">
            {serverMessageOr(syncing.error, t('lmsRoster.syncFailed'))}
          </Alert>
        )}
        {result && (
          <div role="status" className="small">
            {result.map((c) => (
              <div key={c.contextId}>
                {t('lmsRoster.result', { added: c.added.length, kept: c.kept.length, skipped: c.skipped.length })}
                {c.skipped.length > 0 && (
                  <ul className="mb-0">
                    {c.skipped.map((s) => (
                      <li key={`${s.lmsUserId}-${s.reason}`}>
                        {s.name ?? s.lmsUserId}: {t(`lmsRoster.reason.${REASONS[s.reason]}`)}
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
