// The shapes a privacy export and the audit log are downloaded in: CSV in long form.

/** A CSV cell: quoted when needed; a text a spreadsheet would run as a formula gets a leading apostrophe. */
export function csvCell(value: unknown): string {
  let text = value === null || value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function csvLine(values: unknown[]): string {
  return values.map(csvCell).join(',') + '\r\n';
}

/** The export as CSV, one line per field: service, table, row (1-based within the table), field, value. */
export function exportCsv(doc: {
  services: Record<string, { tables: Record<string, Record<string, unknown>[]> }>;
}): string {
  let out = csvLine(['service', 'table', 'row', 'field', 'value']);
  for (const [service, section] of Object.entries(doc.services)) {
    for (const [table, rows] of Object.entries(section.tables)) {
      rows.forEach((row, i) => {
        for (const [field, value] of Object.entries(row)) out += csvLine([service, table, i + 1, field, value]);
      });
    }
  }
  return out;
}
