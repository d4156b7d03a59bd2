// The results page's live view of a class taking the assessment: who has not started, who is in
// progress with how many questions answered, who has submitted. Counts only: no answer and no mark
// shows before the result (the results table below has those). The live stream refreshes it.
import Badge from 'react-bootstrap/Badge';
import Card from 'react-bootstrap/Card';
import Table from 'react-bootstrap/Table';
import { useGetAssessmentProgressQuery, type StudentProgress } from '../results';
import { formatTime } from '../../i18n/format';
import { useTranslation } from '../../i18n/react';
import type { TFunction } from '../../i18n/i18n';
const STATUS_TONE: Record<StudentProgress['status'], string> = {
  not_started: 'secondary',
  in_progress: 'primary',
  submitted: 'success',
};

const time = (iso: string) => formatTime(iso);

function answeredText(s: StudentProgress, questionCount: number, t: TFunction): string {
  if (s.status === 'in_progress') return t('live.answered', { answered: s.answered ?? 0, total: questionCount });
  if (s.status === 'submitted')
    return s.submittedAt ? t('live.submittedAt', { time: time(s.submittedAt) }) : t('live.status.submitted');
  return '—';
}

export function LiveProgressPanel({ assessmentId }: { assessmentId: string }) {
  const { t } = useTranslation('results');
  const { data } = useGetAssessmentProgressQuery(assessmentId);
  if (!data) return null;
  const { counts, students, questionCount } = data;
  return (
    <Card as="section" className="shadow-sm mb-4" aria-labelledby="live-progress-title">
      <Card.Body>
        <div className="d-flex flex-wrap align-items-baseline justify-content-between gap-2 mb-2">
          <h2 id="live-progress-title" className="h5 mb-0">
            {t('live.title')}
          </h2>
          <p className="small text-body-secondary mb-0" data-testid="progress-counts">
            {t('live.counts', {
              inProgress: counts.inProgress,
              submitted: counts.submitted,
              notStarted: counts.notStarted,
            })}
          </p>
        </div>
        <p className="small text-body-secondary">{t('live.intro')}</p>
        {students.length === 0 ? (
          <p className="text-body-secondary mb-0">{t('noStudentsInClass')}</p>
        ) : (
          <Table size="sm" responsive className="mb-0 align-middle" aria-label={t('live.label')}>
            <thead>
              <tr>
                <th scope="col">{t('table.student')}</th>
                <th scope="col">{t('live.status.header')}</th>
                <th scope="col">{t('live.progress')}</th>
              </tr>
            </thead>
            <tbody>
              {students.map((s) => {
                const name = `${s.firstName} ${s.lastName}`.trim();
                const inProgress = s.status === 'in_progress' && questionCount > 0;
                return (
                  <tr key={s.studentId} data-status={s.status}>
                    <th scope="row" className="fw-normal">
                      {name}
                    </th>
                    <td>
                      <Badge bg={STATUS_TONE[s.status]}>{t(`live.status.${s.status}`)}</Badge>
                    </td>
                    <td style={{ minWidth: 160 }}>
                      <span>{answeredText(s, questionCount, t)}</span>
                      {inProgress && (
                        <div className="progress mt-1" style={{ height: 6 }} aria-hidden="true">
                          <div
                            className="progress-bar"
                            style={{ width: `${Math.round(((s.answered ?? 0) / questionCount) * 100)}%` }}
                          />
                        </div>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </Table>
        )}
      </Card.Body>
    </Card>
  );
}
