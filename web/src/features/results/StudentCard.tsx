// One student on the All Students page: name, email, average coloured by its 80/60 band,
// assessment count and the newest three results with '+N more'. The band is the average's, written
// with its thresholds; each result shows its own level (docs/adr/005), so a 50 % raised by practice
// reads 'At Standard' in the list while the average's band says 'Below (average under 60%)'.
// "Standards" opens the student's standards with their trend (read only when opened).
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import { AVERAGE_BAND_TEXT, isLevel, ResultLevel } from '../assessments';
import { formatPercent, levelVariant } from './levels';
import type { StudentSummary } from './resultsApi';
import { StudentStandards } from '../standards';
import { useTranslation } from '../../i18n/react';

/** The student list shows 3 results per student. */
export const RESULTS_SHOWN = 3;

export function StudentCard({ student }: { student: StudentSummary }) {
  const { t } = useTranslation('results');
  const name = `${student.firstName} ${student.lastName}`.trim();
  const [showStandards, setShowStandards] = useState(false);
  const shown = student.results.slice(0, RESULTS_SHOWN);
  const more = student.resultCount - RESULTS_SHOWN;
  const classes = student.classes.map((c) => {
    const period = c.period ? t('classPeriod', { period: c.period }) : null;
    return period ? `${c.name} (${period})` : c.name;
  });

  return (
    <Card as="article" aria-label={name} className="shadow-sm h-100">
      <Card.Body>
        <div className="d-flex align-items-start gap-2 mb-2">
          <div className="flex-grow-1" style={{ minWidth: 0 }}>
            <h3 className="h6 mb-0 text-truncate">{name}</h3>
            <div className="small text-body-secondary text-truncate">{student.email}</div>
          </div>
          <div className="text-end">
            <div
              className={`fs-4 fw-bold lh-1 mb-1 text-${levelVariant(student.band)}-emphasis`}
              data-testid="student-average"
            >
              {student.average === null ? '—' : formatPercent(student.average)}
            </div>
            {student.average === null ? (
              <span className="small text-body-secondary">{t('students.noResults')}</span>
            ) : (
              <span className="small text-body-secondary" data-testid="student-average-band">
                {isLevel(student.band)
                  ? t(`students.band.${student.band}`, { defaultValue: AVERAGE_BAND_TEXT[student.band] })
                  : t('students.average')}
              </span>
            )}
          </div>
        </div>
        <p className="small text-body-secondary mb-2">
          {t('students.assessments', { count: student.resultCount })}
          {classes.length > 0 && ` · ${classes.join(', ')}`}
        </p>
        {shown.length > 0 && (
          <ul className="list-unstyled small mb-0" aria-label={t('students.recentOf', { name })}>
            {shown.map((r) => (
              <li key={r.resultId} className="d-flex align-items-center gap-2 py-1 border-top">
                <span className="flex-grow-1 text-truncate" title={r.title}>
                  {r.title}
                </span>
                <span className="fw-semibold">{formatPercent(r.percentage)}</span>
                <ResultLevel result={r} />
              </li>
            ))}
          </ul>
        )}
        {more > 0 && <p className="small text-body-secondary mt-2 mb-0">{t('students.more', { count: more })}</p>}
        <Button
          size="sm"
          variant="link"
          className="px-0 mt-2"
          aria-expanded={showStandards}
          aria-controls={`standards-of-${student.id}`}
          onClick={() => setShowStandards((v) => !v)}
        >
          {showStandards ? t('students.hideStandards') : t('standards.title')}
          <span className="visually-hidden">{` ${t('students.ofName', { name })}`}</span>
        </Button>
        <div id={`standards-of-${student.id}`} hidden={!showStandards}>
          {showStandards && <StudentStandards studentId={student.id} title={t('students.standardsOf', { name })} />}
        </div>
      </Card.Body>
    </Card>
  );
}
