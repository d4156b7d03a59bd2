// A report as a file: CSV (RFC 4180 by the shared writer, with a UTF-8 byte-order mark so
// spreadsheet programs read accents) or PDF (pdfkit, in DejaVu Sans so that names in Latin, Greek, Cyrillic or Vietnamese
// print as written; the PDF standard fonts only know Western European letters).
import { createRequire } from 'node:module';
import { csvText } from '@checkpoint/service-kit';

const fontFile = (name: string) => createRequire(import.meta.url).resolve(`dejavu-fonts-ttf/ttf/${name}.ttf`);
const FONTS = { regular: fontFile('DejaVuSans'), bold: fontFile('DejaVuSans-Bold') };

export interface ExportableReport {
  title: string;
  generatedAt: string;
  classes: { name: string; period: string | null }[];
  summary: Record<string, number | null>;
  columns: { key: string; label: string }[];
  rows: Record<string, string | number | null>[];
  totalRows: number;
}

/** The report as CSV (the shared writer's rule: formula-looking text escaped, numbers as numbers). */
export function reportCsv(report: ExportableReport): string {
  const header = report.columns.map((c) => c.label);
  const rows = report.rows.map((row) => report.columns.map((c) => row[c.key] ?? null));
  return csvText([header, ...rows], { bom: true });
}

/** Where a CSV file goes (an express response). */
interface CsvResponse {
  setHeader(name: string, value: string): unknown;
  type(contentType: string): { send(body: string): unknown };
}

/** Sends `csv` as the download `fileName` (every CSV export of this service): an attachment no cache keeps. */
export function sendCsv(res: CsvResponse, fileName: string, csv: string): void {
  res.setHeader('Content-Disposition', `attachment; filename="${fileName}"`);
  res.setHeader('Cache-Control', 'no-store');
  res.type('text/csv; charset=utf-8').send(csv);
}

// The level shares count results by their level (docs/adr/005), as the report's table does.
const SUMMARY_LABELS: [string, string, string?][] = [
  ['totalResults', 'Results'],
  ['studentsAssessed', 'Students assessed'],
  ['assessmentsGiven', 'Assessments'],
  ['averageScore', 'Average score', '%'],
  ['abovePercent', 'Results Above Standard', '%'],
  ['atPercent', 'Results At Standard', '%'],
  ['belowPercent', 'Results Below Standard', '%'],
];

/** One summary figure: a dash when there is none (no average without results). */
const summaryText = (value: number | null | undefined, unit = '') =>
  value === null || value === undefined ? '—' : `${value}${unit}`;

/** The report as a landscape A4 PDF; resolves with the whole file. */
export async function reportPdf(report: ExportableReport): Promise<Buffer> {
  // Loaded at the first export: pdfkit's ~20 MB of memory is not paid by a server that never makes one.
  const { default: PDFDocument } = await import('pdfkit');
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ size: 'A4', layout: 'landscape', margin: 36, info: { Title: report.title } });
    doc.registerFont('Regular', FONTS.regular);
    doc.registerFont('Bold', FONTS.bold);
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);

    doc.font('Bold').fontSize(16).text(report.title);
    doc.font('Regular').fontSize(9).fillColor('#555');
    doc.text(`Generated ${report.generatedAt.slice(0, 16).replace('T', ' ')} UTC`);
    const classes = report.classes.map((c) => (c.period ? `${c.name} - Period ${c.period}` : c.name));
    doc.text(`Classes: ${classes.length ? classes.join(', ') : 'none'}`);
    doc.moveDown(0.5).fillColor('#000').fontSize(10);
    doc.text(SUMMARY_LABELS.map(([k, label, unit]) => `${label}: ${summaryText(report.summary[k], unit)}`).join('   '));
    doc.moveDown();

    const left = doc.page.margins.left;
    const width = doc.page.width - left - doc.page.margins.right;
    const colWidth = width / Math.max(1, report.columns.length);
    const drawRow = (cells: string[], bold: boolean) => {
      doc.font(bold ? 'Bold' : 'Regular').fontSize(8);
      const height = Math.max(...cells.map((c) => doc.heightOfString(c, { width: colWidth - 4 }))) + 4;
      if (doc.y + height > doc.page.height - doc.page.margins.bottom) doc.addPage();
      const y = doc.y;
      cells.forEach((c, i) => doc.text(c, left + i * colWidth, y + 2, { width: colWidth - 4, lineBreak: true }));
      doc.x = left;
      doc.y = y + height;
      doc
        .moveTo(left, doc.y)
        .lineTo(left + width, doc.y)
        .strokeColor('#ccc')
        .lineWidth(0.5)
        .stroke();
    };
    drawRow(
      report.columns.map((c) => c.label),
      true,
    );
    for (const row of report.rows)
      drawRow(
        report.columns.map((c) => String(row[c.key] ?? '')),
        false,
      );
    doc.font('Regular').fontSize(9);
    if (report.rows.length === 0) doc.text('No results in this period.', left);
    else if (report.totalRows > report.rows.length)
      doc.moveDown().text(`First ${report.rows.length} of ${report.totalRows} rows; the CSV export holds more.`, left);
    doc.end();
  });
}
