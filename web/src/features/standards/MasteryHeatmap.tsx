// A class's mastery of standards (GET /api/classes/{id}/mastery): students × standards, each cell
// coloured by its level with the results grid's colours (below red, at yellow, above green), its
// score and evidence count written in the cell, the level written out for screen readers (colour
// never carries it alone); a dash where a student has no evidence for a standard.
import Table from 'react-bootstrap/Table';
import { formatPercent } from '../../i18n/format';
import { useLabel } from '../../i18n/labels';
import { useTranslation } from '../../i18n/react';
import type { TFunction } from '../../i18n/i18n';
import { LevelLegend, levelLabel, levelVariant } from '../results';
import type { ClassMasteryRow, MasteryCell } from './standardsApi';

const STUDENT_COLUMN_WIDTH = 200;
const STANDARD_COLUMN_WIDTH = 120;
const columnStyle = (width: number) => ({ width, minWidth: width, maxWidth: width });

/** The standards of the rows, in code order, each once. */
export function standardsOf(rows: readonly ClassMasteryRow[]): { identifier: string; code: string }[] {
  const byId = new Map<string, string>();
  for (const row of rows) for (const s of row.standards) if (!byId.has(s.identifier)) byId.set(s.identifier, s.code);
  return [...byId]
    .map(([identifier, code]) => ({ identifier, code }))
    .sort((a, b) => a.code.localeCompare(b.code, undefined, { numeric: true }));
}

/** How many answers a score is from ('3 answers'), in the interface's language. */
export const evidenceLabel = (t: TFunction, n: number) => t('standards.evidence', { count: n });

function Cell({ cell, student, code }: { cell: MasteryCell | undefined; student: string; code: string }) {
  const { t } = useTranslation('bank');
  const levelName = useLabel();
  if (!cell)
    return (
      <td
        className="text-center"
        style={columnStyle(STANDARD_COLUMN_WIDTH)}
        data-level="none"
        title={t('standards.heatmap.noEvidence')}
      >
        <span aria-hidden="true">—</span>
        <span className="visually-hidden">{t('standards.heatmap.noEvidence')}</span>
      </td>
    );
  const level = levelLabel(cell.level);
  const label = level ? levelName(level) : cell.level;
  return (
    <td
      className={`text-center table-${levelVariant(cell.level)}`}
      style={columnStyle(STANDARD_COLUMN_WIDTH)}
      data-level={cell.level}
      title={t('standards.heatmap.cell', {
        student,
        code,
        level: label,
        score: formatPercent(cell.score),
        evidence: evidenceLabel(t, cell.evidenceCount),
      })}
    >
      {formatPercent(cell.score)}
      <span className="visually-hidden">, {label}</span>
      <span className="d-block small text-body-secondary">{evidenceLabel(t, cell.evidenceCount)}</span>
    </td>
  );
}

export function MasteryHeatmap({ rows }: { rows: readonly ClassMasteryRow[] }) {
  const { t } = useTranslation('bank');
  const standards = standardsOf(rows);
  if (standards.length === 0)
    return (
      <p className="text-body-secondary mb-0" data-testid="mastery-empty">
        {t('standards.heatmap.empty')}
      </p>
    );
  return (
    <>
      <LevelLegend />
      <Table
        bordered
        size="sm"
        responsive
        className="mb-0 align-middle"
        style={{ tableLayout: 'fixed', width: STUDENT_COLUMN_WIDTH + STANDARD_COLUMN_WIDTH * standards.length }}
        aria-label={t('standards.heatmap.table')}
      >
        <thead>
          <tr>
            <th scope="col" style={columnStyle(STUDENT_COLUMN_WIDTH)}>
              {t('standards.heatmap.student')}
            </th>
            {standards.map((s) => (
              <th
                key={s.identifier}
                scope="col"
                className="text-center text-break"
                style={columnStyle(STANDARD_COLUMN_WIDTH)}
              >
                {s.code}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => {
            const cells = new Map(row.standards.map((c) => [c.identifier, c]));
            return (
              <tr key={row.studentId}>
                <th
                  scope="row"
                  className="fw-normal text-truncate"
                  style={columnStyle(STUDENT_COLUMN_WIDTH)}
                  title={row.studentName}
                >
                  {row.studentName}
                </th>
                {standards.map((s) => (
                  <Cell key={s.identifier} cell={cells.get(s.identifier)} student={row.studentName} code={s.code} />
                ))}
              </tr>
            );
          })}
        </tbody>
      </Table>
    </>
  );
}
