import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { csvCell } from '@checkpoint/service-kit';
import { reportCsv, reportPdf, type ExportableReport } from './report-export.ts';

const report = (rows: ExportableReport['rows'], totalRows = rows.length): ExportableReport => ({
  title: 'Detailed Results Report, last 7 days',
  generatedAt: '2026-11-23T10:00:00.000Z',
  classes: [{ name: 'Biology', period: '3' }],
  summary: { totalResults: rows.length, averageScore: 50 },
  columns: [
    { key: 'student', label: 'Student' },
    { key: 'score', label: 'Score %' },
  ],
  rows,
  totalRows,
});

describe('CSV export', () => {
  it('when a cell holds commas, quotes or line breaks, then it is quoted as RFC 4180 says', () => {
    expect(csvCell('Cole, Cy')).toBe('"Cole, Cy"');
    expect(csvCell('the "best"')).toBe('"the ""best"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell(null)).toBe('');
  });

  it('when a text would run as a spreadsheet formula, then it is prefixed with an apostrophe; numbers stay numbers', () => {
    expect(csvCell('=HYPERLINK("http://evil")')).toBe(`"'=HYPERLINK(""http://evil"")"`);
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell(-5)).toBe('-5');
  });

  it('when rows are exported, then a BOM, the header and one CRLF line per row', () => {
    const csv = reportCsv(report([{ student: 'Zoë Łukasz', score: 80 }]));
    expect(csv).toBe('\uFEFFStudent,Score %\r\nZoë Łukasz,80\r\n');
  });

  it('when a name starts with a full-width formula sign or a score is negative, then the name is escaped and the score is a number', () => {
    const csv = reportCsv(report([{ student: '\uFF1DHYPERLINK("x")', score: -5 }]));
    expect(csv).toBe('\uFEFFStudent,Score %\r\n"\'\uFF1DHYPERLINK(""x"")",-5\r\n');
  });
});

describe('PDF export', () => {
  it('when names are not Western European, then the PDF embeds a Unicode font and no standard font', async () => {
    const pdf = await reportPdf(report([{ student: 'Łukasz Nguyễn Дмитрий', score: 67 }]));
    const text = pdf.toString('latin1');
    expect(text.startsWith('%PDF-')).toBe(true);
    expect(text).toMatch(/\/BaseFont \/[A-Z]{6}\+DejaVuSans\b/);
    expect(text).not.toMatch(/\/BaseFont \/Helvetica/);
    // The font's character map says which characters the glyphs stand for: the Cyrillic and
    // Vietnamese letters are among them.
    const streams = [...text.matchAll(/stream\r?\n([\s\S]*?)\r?\nendstream/g)].map((m) => {
      try {
        return inflateSync(Buffer.from(m[1]!, 'latin1')).toString('latin1');
      } catch {
        return '';
      }
    });
    const cmap = streams.filter((s) => s.includes('begincmap')).join('\n');
    for (const ch of ['Ł', 'ễ', 'Д'])
      expect(cmap.toLowerCase()).toContain(ch.charCodeAt(0).toString(16).padStart(4, '0'));
  });
});
