// The CSV files users download (reports, roster errors, privacy exports, the audit log), written one
// way (docs/security.md, "CSV downloads"): RFC 4180 (CRLF line ends; a cell holding a comma, a
// quote or a line break is quoted, its quotes doubled), by csv-stringify with `escape_formulas`.
// A text cell that a spreadsheet would run as a formula (it starts with = + - @, a tab or a carriage
// return, or their full-width forms) gets a leading apostrophe (OWASP "CSV injection"); a number is
// written as a number, so a negative score stays -5 and is no formula. Other values: a boolean as
// true/false, a date as its ISO text, an object or a list as its JSON text (a text cell, escaped as
// one), null and undefined as an empty cell.
import { stringify } from 'csv-stringify/sync';

export interface CsvOptions {
  /**
   * Starts the file with the UTF-8 byte-order mark. Excel reads a CSV file without it in the
   * computer's legacy code page, so accented names come out garbled: files meant to be opened in
   * a spreadsheet set it.
   */
  bom?: boolean;
}

/** The rows (the first one is usually the header) as one CSV text, each line ended by CRLF. */
export function csvText(rows: readonly (readonly unknown[])[], options: CsvOptions = {}): string {
  return stringify(rows as unknown[][], {
    bom: options.bom === true,
    record_delimiter: 'windows',
    // Set explicitly: with its own record_delimiter, csv-stringify would leave a cell holding a
    // lone \n or \r unquoted, and a reader would split the row there.
    quote_record_delimiter: true,
    escape_formulas: true,
    cast: {
      boolean: (value) => String(value),
      date: (value) => value.toISOString(),
      object: (value) => JSON.stringify(value),
    },
  });
}

/** One cell as it appears in a line of `csvText` (quoted and escaped by the same rule). */
export function csvCell(value: unknown): string {
  return csvText([[value]]).slice(0, -2);
}
