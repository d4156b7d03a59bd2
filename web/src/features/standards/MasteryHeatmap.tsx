// A class's mastery of standards (GET /api/classes/{id}/mastery): students × standards, each cell
// coloured by its level with the results grid's colours (below red, at yellow, above green), its
// score and evidence count written in the cell, the level written out for screen readers (colour
// never carries it alone); a dash where a student has no evidence for a standard.
import Table from 'react-bootstrap/Table';
import { formatPercent, LevelLegend, levelLabel, levelVariant } from '../results';
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

export const evidenceLabel = (n: number) => `${n} ${n === 1 ? 'answer' : 'answers'}`;

function Cell({ cell, student, code }: { cell: MasteryCell | undefined; student: string; code: string }) {
  if (!cell)
    return (
      <td className="text-center" style={columnStyle(STANDARD_COLUMN_WIDTH)} data-level="none" title="No evidence">
        <span aria-hidden="true">—</span>
        <span className="visually-hidden">No evidence</span>
      </td>
    );
  const label = levelLabel(cell.level) ?? cell.level;
  return (
    <td
      className={`text-center table-${levelVariant(cell.level)}`}
      style={columnStyle(STANDARD_COLUMN_WIDTH)}
      data-level={cell.level}
      title={`${student}, ${code}: ${label}, ${formatPercent(cell.score)} from ${evidenceLabel(cell.evidenceCount)}`}
    >
      {formatPercent(cell.score)}
      <span className="visually-hidden">, {label}</span>
      <span className="d-block small text-body-secondary">{evidenceLabel(cell.evidenceCount)}</span>
    </td>
  );
}

export function MasteryHeatmap({ rows }: { rows: readonly ClassMasteryRow[] }) {
  const standards = standardsOf(rows);
  if (standards.length === 0)
    return (
      <p className="text-body-secondary mb-0" data-testid="mastery-empty">
        No results on questions aligned to standards yet. Mastery appears here once students submit an assessment whose
        questions have standards.
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
        aria-label="Mastery by student and standard"
      >
        <thead>
          <tr>
            <th scope="col" style={columnStyle(STUDENT_COLUMN_WIDTH)}>
              Student
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
