// The student progress grid of one class: legend, one row per student and one column per
// assessment with the rounded percentage (or a dash), coloured by the result's level, never by the
// percentage (docs/adr/005): a 50 % raised by practice is at standard, a 60 % not raised is below.
// A raised cell carries a ↑ mark and says so in its title. The level is also written out for screen
// readers, so colour never carries it alone.
// A started attempt not yet submitted reads "In progress" with how many questions are answered
// (never what).
import { Link } from 'react-router';
import Table from 'react-bootstrap/Table';
import { bandForLevel, isRaised, ordinal } from '../assessments';
import { formatPercent, levelLabel, levelVariant } from './levels';
import { LevelLegend } from './LevelLegend';
import type { ClassGrid } from './resultsApi';
import { useTranslation } from '../../i18n/react';
import { useLabel } from '../../i18n/labels';

/** First column 200px, assessment columns 120px. */
export const STUDENT_COLUMN_WIDTH = 200;
export const ASSESSMENT_COLUMN_WIDTH = 120;

const cellKey = (studentId: string, assessmentId: string) => `${studentId}/${assessmentId}`;
const columnStyle = (width: number) => ({ width, minWidth: width, maxWidth: width });

function Legend() {
  const { t } = useTranslation('results');
  return (
    <LevelLegend>
      <li className="list-inline-item me-3">
        <span aria-hidden="true" className="fw-bold me-1">
          ↑
        </span>
        {t('grid.raised')}
      </li>
    </LevelLegend>
  );
}

type Cell = ClassGrid['cells'][number];

/** One result's cell: its percentage, coloured by its level, the level (and a raise's note) in words too. */
function ResultCell({ cell, raised }: { cell: Cell | undefined; raised: string | null }) {
  const { t } = useTranslation('results');
  const levelName = useLabel();
  const english = levelLabel(cell?.performanceLevel);
  const label = english && levelName(english);
  return (
    <td
      className={`text-center table-${levelVariant(cell?.performanceLevel)}`}
      style={columnStyle(ASSESSMENT_COLUMN_WIDTH)}
      title={cell ? [label, raised].filter(Boolean).join(', ') : t('grid.noResult')}
      data-level={cell?.performanceLevel ?? 'none'}
      data-raised={cell && isRaised(cell) ? 'practice' : undefined}
    >
      {cell ? (
        <>
          {formatPercent(cell.percentage)}
          {raised && (
            <span aria-hidden="true" className="fw-bold ms-1">
              ↑
            </span>
          )}
          {label && <span className="visually-hidden">, {label}</span>}
          {raised && <span className="visually-hidden">, {raised}</span>}
        </>
      ) : (
        <>
          <span aria-hidden="true">—</span>
          <span className="visually-hidden">{t('grid.noResult')}</span>
        </>
      )}
    </td>
  );
}

/**
 * A result practice raised: its note ('raised to At Standard by practice (2nd try)') in the
 * interface's language, as ResultLevel words it (the assessments namespace, loaded only for a raised one).
 */
function RaisedResultCell({ cell }: { cell: Cell }) {
  const { t, i18n } = useTranslation('assessments');
  const levelName = useLabel();
  const level = levelName(bandForLevel(cell.performanceLevel).label);
  const n = cell.raisedAttempt;
  const tryText =
    n && n >= 1 ? t('resultLevel.try', { ordinal: i18n.language === 'en' ? ordinal(n) : `${n}.º` }) : null;
  const note = tryText ? t('resultLevel.raisedTry', { level, try: tryText }) : t('resultLevel.raised', { level });
  return <ResultCell cell={cell} raised={note} />;
}

export function StudentProgressGrid({ grid }: { grid: ClassGrid }) {
  const { t } = useTranslation('results');
  const { students, assessments } = grid;
  const cells = new Map(grid.cells.map((c) => [cellKey(c.studentId, c.assessmentId), c]));
  const started = new Map(grid.inProgress.map((p) => [cellKey(p.studentId, p.assessmentId), p]));
  const tableWidth = STUDENT_COLUMN_WIDTH + ASSESSMENT_COLUMN_WIDTH * assessments.length;

  return (
    <>
      <Legend />
      {students.length === 0 ? (
        <p className="text-body-secondary mb-0">{t('noStudentsInClass')}</p>
      ) : (
        <Table
          bordered
          size="sm"
          responsive
          className="mb-0 align-middle"
          style={{ tableLayout: 'fixed', width: tableWidth }}
        >
          <thead>
            <tr>
              <th scope="col" style={columnStyle(STUDENT_COLUMN_WIDTH)}>
                {t('table.student')}
              </th>
              {assessments.map((a) => (
                <th key={a.id} scope="col" className="text-center" style={columnStyle(ASSESSMENT_COLUMN_WIDTH)}>
                  <Link
                    to={`/assessment-preview/${a.id}`}
                    className="d-block text-truncate link-body-emphasis"
                    title={a.title}
                  >
                    {a.title}
                  </Link>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {students.map((s) => {
              const name = `${s.firstName} ${s.lastName}`.trim();
              return (
                <tr key={s.id}>
                  <th
                    scope="row"
                    className="fw-normal text-truncate"
                    style={columnStyle(STUDENT_COLUMN_WIDTH)}
                    title={name}
                  >
                    {name}
                  </th>
                  {assessments.map((a) => {
                    const cell = cells.get(cellKey(s.id, a.id));
                    const attempt = cell ? undefined : started.get(cellKey(s.id, a.id));
                    if (attempt) {
                      const answered = t('live.answered', { answered: attempt.answered, total: attempt.questionCount });
                      return (
                        <td
                          key={a.id}
                          className="text-center small"
                          style={columnStyle(ASSESSMENT_COLUMN_WIDTH)}
                          title={t('grid.inProgressTitle', { answered })}
                          data-level="in-progress"
                        >
                          {t('live.status.in_progress')}
                          <span className="d-block text-body-secondary">{answered}</span>
                        </td>
                      );
                    }
                    if (cell && isRaised(cell)) return <RaisedResultCell key={a.id} cell={cell} />;
                    return <ResultCell key={a.id} cell={cell} raised={null} />;
                  })}
                </tr>
              );
            })}
          </tbody>
        </Table>
      )}
    </>
  );
}
