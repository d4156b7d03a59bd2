// A report's table exactly as the server built it (the same table the CSV and PDF exports hold).
import Table from 'react-bootstrap/Table';
import { ScrollRegion } from '../../components/ScrollRegion';
import type { Report } from '../results';
import { useTranslation } from '../../i18n/react';
import { useServerText } from './serverText';

/** Columns whose cells are the server's words (levels, bands), shown in the interface's language. */
const WORD_COLUMNS = new Set(['level', 'originalLevel', 'latestLevel', 'band']);

function cell(value: string | number | null | undefined, words?: (english: string) => string) {
  if (value === null || value === undefined) return '—';
  return words && typeof value === 'string' ? words(value) : value;
}

export function ReportTable({
  columns,
  rows,
  totalRows,
  caption,
}: {
  columns: Report['columns'];
  rows: Report['rows'];
  /** Rows of the whole report; the server sends at most 1000 of them. */
  totalRows: number;
  caption: string;
}) {
  const { t } = useTranslation('results');
  const text = useServerText();
  if (rows.length === 0) return <p className="text-body-secondary mb-0">{t('reports.noResults')}</p>;
  return (
    <>
      {totalRows > rows.length && (
        <p className="small text-body-secondary" role="note">
          {t('reports.partial', { shown: rows.length, total: totalRows })}
        </p>
      )}
      <ScrollRegion label={t('reports.rows')}>
        <Table striped size="sm" className="mb-0">
          <caption className="visually-hidden">{caption}</caption>
          <thead>
            <tr>
              {columns.map((c) => (
                <th key={c.key} scope="col">
                  {text(c.label)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row, i) => (
              <tr key={i}>
                {columns.map((c) => (
                  <td key={c.key}>{cell(row[c.key], WORD_COLUMNS.has(c.key) ? text : undefined)}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </Table>
      </ScrollRegion>
    </>
  );
}
