// A student's standards (GET /api/mastery/students/{id}): each standard's level, mastery score,
// evidence count and its trend across assessments (oldest first, each assessment's score on the
// standard's questions), written out as text so it reads without the colours; and the same as CSV
// (one row per standard and assessment) for whoever sees it: the student, their teacher, their admin.
import Alert from 'react-bootstrap/Alert';
import Badge from 'react-bootstrap/Badge';
import Spinner from 'react-bootstrap/Spinner';
import Table from 'react-bootstrap/Table';
import { serverMessageOr } from '../../api/apiError';
import { CsvDownloadLink } from '../../components/CsvDownloadLink';
import { formatPercent, levelLabel, levelVariant } from '../results';
import { evidenceLabel } from './MasteryHeatmap';
import { studentMasteryExportPath, useGetStudentMasteryQuery, type StudentStandard } from './standardsApi';

/** Rising, falling or steady: the last score against the first (5 points either way count as steady). */
export function trendDirection(trend: StudentStandard['trend']): 'rising' | 'falling' | 'steady' {
  if (trend.length < 2) return 'steady';
  const change = trend[trend.length - 1]!.score - trend[0]!.score;
  return change >= 5 ? 'rising' : change <= -5 ? 'falling' : 'steady';
}

const ARROWS = { rising: '↗', falling: '↘', steady: '→' } as const;

function Trend({ standard }: { standard: StudentStandard }) {
  const direction = trendDirection(standard.trend);
  return (
    <>
      <span aria-hidden="true" className="me-1">
        {ARROWS[direction]}
      </span>
      <span className="visually-hidden">{direction}: </span>
      <ol className="list-inline d-inline mb-0" aria-label={`Trend of ${standard.code}`}>
        {standard.trend.map((t, i) => (
          <li key={`${t.assessmentId}-${i}`} className="list-inline-item me-1" title={t.title}>
            {formatPercent(t.score)}
            <span className="visually-hidden"> in {t.title}</span>
          </li>
        ))}
      </ol>
    </>
  );
}

export function StudentStandards({ studentId, title = 'My standards' }: { studentId: string; title?: string }) {
  const mastery = useGetStudentMasteryQuery(studentId, { skip: !studentId });
  const headingId = `student-standards-${studentId}`;
  return (
    <section aria-labelledby={headingId}>
      <div className="d-flex flex-wrap align-items-center justify-content-between gap-2 mb-3">
        <h2 id={headingId} className="h5 mb-0">
          {title}
        </h2>
        {(mastery.data ?? []).length > 0 && (
          <CsvDownloadLink href={studentMasteryExportPath(studentId)} describedBy={headingId}>
            Export standards CSV
          </CsvDownloadLink>
        )}
      </div>
      {mastery.isLoading ? (
        <Spinner animation="border" size="sm" role="status">
          <span className="visually-hidden">Loading standards…</span>
        </Spinner>
      ) : mastery.isError ? (
        <Alert variant="danger" className="mb-0">
          {serverMessageOr(mastery.error, 'Failed to load the standards')}
        </Alert>
      ) : !mastery.data || mastery.data.length === 0 ? (
        <p className="text-body-secondary mb-0">No standards assessed yet.</p>
      ) : (
        <Table size="sm" responsive className="mb-0 align-middle">
          <thead>
            <tr>
              <th scope="col">Standard</th>
              <th scope="col">Level</th>
              <th scope="col" className="text-end">
                Mastery
              </th>
              <th scope="col">Trend</th>
            </tr>
          </thead>
          <tbody>
            {mastery.data.map((s) => (
              <tr key={s.identifier}>
                <th scope="row" className="fw-semibold">
                  {s.code}
                </th>
                <td>
                  <Badge
                    bg={`${levelVariant(s.level)}-subtle`}
                    text={`${levelVariant(s.level)}-emphasis`}
                    className="border"
                  >
                    {levelLabel(s.level) ?? s.level}
                  </Badge>
                </td>
                <td className="text-end">
                  {formatPercent(s.score)}
                  <span className="d-block small text-body-secondary">{evidenceLabel(s.evidenceCount)}</span>
                </td>
                <td>
                  <Trend standard={s} />
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
    </section>
  );
}
