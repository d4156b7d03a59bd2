// A report's table exactly as the server built it (the same table the CSV and PDF exports hold).
import Table from 'react-bootstrap/Table';
import { ScrollRegion } from '../../components/ScrollRegion';
import type { Report } from '../results';

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
  if (rows.length === 0) return <p className="text-body-secondary mb-0">No results in this period.</p>;
  return (
    <>
      {totalRows > rows.length && (
        <p className="small text-body-secondary" role="note">
          Showing the first {rows.length} of {totalRows} rows. Download the CSV or PDF for all of them.
        </p>
      )}
      <ScrollRegion label="Report rows">
        <Table striped size="sm" className="mb-0">
          <caption className="visually-hidden">{caption}</caption>
          <thead>
            <tr>
              {columns.map((c) => (
                <th key={c.key} scope="col">
                  {c.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row, i) => (
              <tr key={i}>
                {columns.map((c) => (
                  <td key={c.key}>{row[c.key] ?? '—'}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </Table>
      </ScrollRegion>
    </>
  );
}
