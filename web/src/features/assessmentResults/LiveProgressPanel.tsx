// The results page's live view of a class taking the assessment: who has not started, who is in
// progress with how many questions answered, who has submitted. Counts only: no answer and no mark
// shows before the result (the results table below has those). The live stream refreshes it.
import Badge from 'react-bootstrap/Badge';
import Card from 'react-bootstrap/Card';
import Table from 'react-bootstrap/Table';
import { useGetAssessmentProgressQuery, type StudentProgress } from '../results';
import { formatTime } from '../../i18n/format';

const STATUS_TEXT: Record<StudentProgress['status'], string> = {
  not_started: 'Not started',
  in_progress: 'In progress',
  submitted: 'Submitted',
};
const STATUS_TONE: Record<StudentProgress['status'], string> = {
  not_started: 'secondary',
  in_progress: 'primary',
  submitted: 'success',
};

const time = (iso: string) => formatTime(iso);

function answeredText(s: StudentProgress, questionCount: number): string {
  if (s.status === 'in_progress') return `${s.answered ?? 0} of ${questionCount} answered`;
  if (s.status === 'submitted') return s.submittedAt ? `Submitted at ${time(s.submittedAt)}` : 'Submitted';
  return '—';
}

export function LiveProgressPanel({ assessmentId }: { assessmentId: string }) {
  const { data } = useGetAssessmentProgressQuery(assessmentId);
  if (!data) return null;
  const { counts, students, questionCount } = data;
  return (
    <Card as="section" className="shadow-sm mb-4" aria-labelledby="live-progress-title">
      <Card.Body>
        <div className="d-flex flex-wrap align-items-baseline justify-content-between gap-2 mb-2">
          <h2 id="live-progress-title" className="h5 mb-0">
            Live Progress
          </h2>
          <p className="small text-body-secondary mb-0" data-testid="progress-counts">
            {counts.inProgress} in progress · {counts.submitted} submitted · {counts.notStarted} not started
          </p>
        </div>
        <p className="small text-body-secondary">
          Updates as students work. Answers and scores show once a student submits.
        </p>
        {students.length === 0 ? (
          <p className="text-body-secondary mb-0">No students in this class yet.</p>
        ) : (
          <Table size="sm" responsive className="mb-0 align-middle" aria-label="Live progress">
            <thead>
              <tr>
                <th scope="col">Student</th>
                <th scope="col">Status</th>
                <th scope="col">Progress</th>
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
                      <Badge bg={STATUS_TONE[s.status]}>{STATUS_TEXT[s.status]}</Badge>
                    </td>
                    <td style={{ minWidth: 160 }}>
                      <span>{answeredText(s, questionCount)}</span>
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
