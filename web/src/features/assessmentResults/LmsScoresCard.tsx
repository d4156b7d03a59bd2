// The scores of this assessment sent to the LMS gradebook (LTI AGS, docs/adr/014-lti.md): how many
// are sent, waiting or failed, why the unsent ones wait (last error, attempts, next try), and a
// Resend button. Shown only when some student launched the assessment from an LMS with a line item
// (a teacher of the class only; anything else reads nothing and shows nothing). Plain markup: no
// chart or table library, so the results page's JavaScript barely grows.
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import { serverMessageOr } from '../../api/apiError';
import { generatedApi, type LtiScoreStatus } from '../../api/generated/endpoints';
import { useTranslation } from '../../i18n/react';
import { formatDateTime } from '../../i18n/format';

const scoresApi = generatedApi.enhanceEndpoints({
  addTagTypes: ['LtiScores'],
  endpoints: {
    getLtiScores: { providesTags: (_r, _e, id) => [{ type: 'LtiScores', id }] },
    resendLtiScores: { invalidatesTags: (_r, _e, arg) => [{ type: 'LtiScores', id: arg.assessmentId }] },
  },
});
const { useGetLtiScoresQuery, useResendLtiScoresMutation } = scoresApi;

const when = (iso: string | null) => (iso ? formatDateTime(iso, { dateStyle: 'short', timeStyle: 'medium' }) : '—');

export function LmsScoresCard({ assessmentId, names }: { assessmentId: string; names: Record<string, string> }) {
  const { t } = useTranslation('results');
  // Waiting scores are looked at again every 30 s while the page is open.
  const { data } = useGetLtiScoresQuery(assessmentId, { pollingInterval: 30_000 });
  const [resend, resending] = useResendLtiScoresMutation();
  if (!data || data.scores.length === 0) return null;
  const count = (status: LtiScoreStatus['status']) => data.scores.filter((s) => s.status === status).length;
  const unsent = data.scores.filter((s) => s.status !== 'sent');
  return (
    <Card as="section" className="shadow-sm mb-4" aria-labelledby="lms-scores-title">
      <Card.Body>
        <h2 id="lms-scores-title" className="h5">
          {t('lms.title')}
        </h2>
        <p className="small mb-2" data-testid="lms-scores-summary">
          {t('lms.summary', { sent: count('sent'), pending: count('pending'), failed: count('failed') })}
        </p>
        {unsent.length > 0 && (
          <>
            <ul className="list-unstyled small mb-2">
              {unsent.map((s) => (
                <li key={s.id} className="py-1 border-bottom" data-testid="lms-score-unsent">
                  <span className="fw-semibold">{names[s.userId] ?? s.lmsUserId}</span>:{' '}
                  {t(s.status === 'failed' ? 'lms.failedAfter' : 'lms.waitingAfter', { count: s.attempts })}
                  {s.status === 'pending' && ` · ${t('lms.nextTry', { when: when(s.nextAttemptAt) })}`}
                  {s.lastError && <div className="text-body-secondary">{s.lastError}</div>}
                </li>
              ))}
            </ul>
            <Button
              size="sm"
              variant="outline-primary"
              disabled={resending.isLoading}
              onClick={() => void resend({ assessmentId, body: {} })}
            >
              {t('lms.resend')}
            </Button>
            {resending.isError && (
              <div role="alert" className="small text-danger mt-1">
                {serverMessageOr(resending.error, t('lms.resendFailed'))}
              </div>
            )}
            {resending.isSuccess && (
              <div role="status" className="small mt-1">
                {t('lms.resent', { count: resending.data.resent })}
              </div>
            )}
          </>
        )}
      </Card.Body>
    </Card>
  );
}
