// Export Data: plain links the browser downloads (the server names the file); a GET carries the cookie.
import { exportUrl, type ReportQuery } from '../results';

export function ExportLinks({ query }: { query: ReportQuery }) {
  return (
    <div role="group" aria-labelledby="export-data-label" className="d-flex flex-wrap align-items-center gap-2">
      <span id="export-data-label" className="fw-semibold">
        Export Data
      </span>
      <a className="btn btn-outline-primary btn-sm" href={exportUrl(query, 'csv')} download>
        Download CSV
      </a>
      <a className="btn btn-outline-primary btn-sm" href={exportUrl(query, 'pdf')} download>
        Download PDF
      </a>
    </div>
  );
}
