// A student's standards (GET /api/mastery/students/{id}): each standard's level, mastery score,
// evidence count and its trend across assessments (oldest first, each assessment's score on the
// standard's questions), written out as text so it reads without the colours; and the same as CSV
// (one row per standard and assessment) for whoever sees it: the student, their teacher, their admin.
import { Suspense } from 'react';
import Alert from 'react-bootstrap/Alert';
import Badge from 'react-bootstrap/Badge';
import Spinner from 'react-bootstrap/Spinner';
import Table from 'react-bootstrap/Table';
import { serverMessageOr } from '../../api/apiError';
import { CsvDownloadLink } from '../../components/CsvDownloadLink';
import { formatPercent } from '../../i18n/format';
import { useLabel } from '../../i18n/labels';
import { useTranslation } from '../../i18n/react';
import { levelLabel, levelVariant } from '../results';
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
  const { t } = useTranslation('bank');
  const direction = trendDirection(standard.trend);
  return (
    <>
      <span aria-hidden="true" className="me-1">
        {ARROWS[direction]}
      </span>
      <span className="visually-hidden">{t(`standards.student.${direction}`)}: </span>
      <ol className="list-inline d-inline mb-0" aria-label={t('standards.student.trendOf', { code: standard.code })}>
        {standard.trend.map((point, i) => (
          <li key={`${point.assessmentId}-${i}`} className="list-inline-item me-1" title={point.title}>
            {formatPercent(point.score)}
            <span className="visually-hidden"> {t('standards.student.in', { title: point.title })}</span>
          </li>
        ))}
      </ol>
    </>
  );
}

type Props = { studentId: string; title?: string };

/**
 * Its texts load with the standards' (the dashboard's own may already be there): nothing shows until
 * then. Its words suit the student (their dashboard: "My standards") and their teacher alike.
 */
export function StudentStandards(props: Props) {
  return (
    <Suspense fallback={null}>
      <Standards {...props} />
    </Suspense>
  );
}

function Standards({ studentId, title }: Props) {
  const { t } = useTranslation('bank');
  const levelName = useLabel();
  const mastery = useGetStudentMasteryQuery(studentId, { skip: !studentId });
  const headingId = `student-standards-${studentId}`;
  return (
    <section aria-labelledby={headingId}>
      <div className="d-flex flex-wrap align-items-center justify-content-between gap-2 mb-3">
        <h2 id={headingId} className="h5 mb-0">
          {title ?? t('standards.student.title')}
        </h2>
        {(mastery.data ?? []).length > 0 && (
          <CsvDownloadLink href={studentMasteryExportPath(studentId)} describedBy={headingId}>
            {t('standards.student.export')}
          </CsvDownloadLink>
        )}
      </div>
      {mastery.isLoading ? (
        <Spinner animation="border" size="sm" role="status">
          <span className="visually-hidden">{t('standards.student.loading')}</span>
        </Spinner>
      ) : mastery.isError ? (
        <Alert variant="danger" className="mb-0">
          {serverMessageOr(mastery.error, t('standards.student.failed'))}
        </Alert>
      ) : !mastery.data || mastery.data.length === 0 ? (
        <p className="text-body-secondary mb-0">{t('standards.student.empty')}</p>
      ) : (
        <Table size="sm" responsive className="mb-0 align-middle">
          <thead>
            <tr>
              <th scope="col">{t('bank.label.standard')}</th>
              <th scope="col">{t('standards.level')}</th>
              <th scope="col" className="text-end">
                {t('standards.mastery')}
              </th>
              <th scope="col">{t('standards.student.trend')}</th>
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
                    {levelName(levelLabel(s.level) ?? s.level)}
                  </Badge>
                </td>
                <td className="text-end">
                  {formatPercent(s.score)}
                  <span className="d-block small text-body-secondary">{evidenceLabel(t, s.evidenceCount)}</span>
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
