// Export Data: plain links the browser downloads (the server names the file); a GET carries the cookie.
import { exportUrl, type ReportQuery } from '../results';
import { useTranslation } from '../../i18n/react';

export function ExportLinks({ query }: { query: ReportQuery }) {
  const { t } = useTranslation('results');
  return (
    <div role="group" aria-labelledby="export-data-label" className="d-flex flex-wrap align-items-center gap-2">
      <span id="export-data-label" className="fw-semibold">
        {t('reports.export')}
      </span>
      <a className="btn btn-outline-primary btn-sm" href={exportUrl(query, 'csv')} download>
        {t('reports.downloadCsv')}
      </a>
      <a className="btn btn-outline-primary btn-sm" href={exportUrl(query, 'pdf')} download>
        {t('reports.downloadPdf')}
      </a>
    </div>
  );
}
