// CSV reading for the roster files (csv-parse): a header row, one record per line with its line
// number, so that every error can point at the line to fix. The file is already in memory (read
// from the zip), so the synchronous parser is used: iterating the streaming one record by record
// costs several times as much on a 400,000-row roster.
import { isUtf8 } from 'node:buffer';
import { parse } from 'csv-parse/sync';

export interface CsvRecord {
  /** 1-based line of the file where the record starts (the header is line 1). */
  line: number;
  values: Record<string, string>;
}

export class CsvFormatError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(message);
  }
}

/** Rows a roster file may have (a 50,000-student district has some 300,000 enrollments). */
export const MAX_CSV_ROWS = 1_000_000;
/** Characters one line (record) may have: a roster row is a few hundred. */
export const MAX_LINE_CHARS = 16 * 1024;

/** The header and the records of one CSV file; a malformed file throws CsvFormatError. */
export async function readCsv(input: Uint8Array | string): Promise<{ header: string[]; records: CsvRecord[] }> {
  // A file saved as Latin-1 or Windows-1252 ("Zo\xEB") would be read with U+FFFD in its names.
  if (typeof input !== 'string' && !isUtf8(input)) {
    const decoded = Buffer.from(input).toString('utf8');
    const line = decoded.slice(0, decoded.indexOf('\uFFFD')).split('\n').length;
    throw new CsvFormatError(
      line,
      `line ${line} is not UTF-8 text: save the file as UTF-8 (it may be in Latin-1 or Windows-1252)`,
    );
  }
  const text = Buffer.from(input);
  // Lines are counted (blank ones too) before anything is parsed: a file of a million newlines is
  // refused here, in one pass over its bytes, not after the parser has walked it.
  let lines = 0;
  for (let i = text.indexOf(10); i !== -1; i = text.indexOf(10, i + 1)) {
    if (++lines > MAX_CSV_ROWS)
      throw new CsvFormatError(
        MAX_CSV_ROWS + 1,
        `the file has more than ${MAX_CSV_ROWS} lines (limit: ${MAX_CSV_ROWS} rows per file); split it`,
      );
  }
  let rows: { record: string[]; info: { lines: number } }[];
  try {
    rows = parse(text, {
      bom: true,
      max_record_size: MAX_LINE_CHARS,
      info: true,
      skip_empty_lines: true,
      relax_column_count: false,
      trim: true,
    }) as unknown as { record: string[]; info: { lines: number } }[];
  } catch (err) {
    const e = err as { lines?: number; message?: string; code?: string };
    if (e.code === 'CSV_MAX_RECORD_SIZE')
      throw new CsvFormatError(
        e.lines ?? 0,
        `a record is longer than ${MAX_LINE_CHARS} characters (limit: line length ${MAX_LINE_CHARS})`,
      );
    throw new CsvFormatError(e.lines ?? 0, e.message ?? 'Not a valid CSV file');
  }
  const header = rows[0]?.record ?? [];
  const records: CsvRecord[] = [];
  for (let r = 1; r < rows.length; r++) {
    const { record, info } = rows[r]!;
    const values: Record<string, string> = {};
    for (let i = 0; i < header.length; i++) values[header[i]!] = record[i] ?? '';
    records.push({ line: info.lines, values });
  }
  return { header, records };
}
