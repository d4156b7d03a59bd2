// The shapes a privacy export and the audit log are downloaded in: CSV in long form, by the shared
// writer (formula-looking text escaped, numbers as numbers, other JSON values as their JSON text).
import { csvText } from '@checkpoint/service-kit';

/** The export as CSV, one line per field: service, table, row (1-based within the table), field, value. */
export function exportCsv(doc: {
  services: Record<string, { tables: Record<string, Record<string, unknown>[]> }>;
}): string {
  const lines: unknown[][] = [['service', 'table', 'row', 'field', 'value']];
  for (const [service, section] of Object.entries(doc.services)) {
    for (const [table, rows] of Object.entries(section.tables)) {
      rows.forEach((row, i) => {
        for (const [field, value] of Object.entries(row)) lines.push([service, table, i + 1, field, value]);
      });
    }
  }
  return csvText(lines);
}
