// Recent Assessment Results: the report's newest 10; View All Results (N) shows every result of the
// same filters, taken from the detailed report (one row per result), so N and the list agree.
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Table from 'react-bootstrap/Table';
import { serverMessageOr } from '../../api/apiError';
import { PageSpinner } from '../../components/PageSpinner';
import { ScrollRegion } from '../../components/ScrollRegion';
import { ResultLevel } from '../assessments';
import { reportArg, useGetReportQuery, type Report, type ReportQuery } from '../results';
import { ReportTable } from './ReportTable';
import { useTranslation } from '../../i18n/react';
import { formatDate, formatPercent } from '../../i18n/format';

function RecentTable({ results }: { results: Report['recentResults'] }) {
  const { t } = useTranslation('results');
  if (results.length === 0) return <p className="text-body-secondary mb-0">{t('reports.noResults')}</p>;
  return (
    // Scrolls sideways on a phone: a region a keyboard can reach (ScrollRegion).
    <ScrollRegion label={t('reports.recentTable')}>
      <Table hover size="sm" className="align-middle mb-0">
        <thead>
          <tr>
            <th scope="col">{t('table.student')}</th>
            <th scope="col">{t('reports.assessment')}</th>
            <th scope="col">{t('table.class')}</th>
            <th scope="col">{t('table.score')}</th>
            <th scope="col">{t('table.level')}</th>
            <th scope="col">{t('table.submitted')}</th>
          </tr>
        </thead>
        <tbody>
          {results.map((r) => {
            // One result carries the server's level name everywhere (docs/adr/005).
            return (
              <tr key={r.id}>
                <td>
                  {r.student.firstName} {r.student.lastName}
                </td>
                <td>{r.assessment.title}</td>
                <td>{r.className}</td>
                <td>{formatPercent(r.score)}</td>
                <td>
                  <ResultLevel result={r} />
                </td>
                <td>{formatDate(r.submittedAt)}</td>
              </tr>
            );
          })}
        </tbody>
      </Table>
    </ScrollRegion>
  );
}

function AllResults({ report, query }: { report: Report; query: ReportQuery }) {
  const { t } = useTranslation('results');
  const alreadyDetailed = query.type === 'detailed';
  const detailed = useGetReportQuery(reportArg({ ...query, type: 'detailed' }), { skip: alreadyDetailed });
  const source = alreadyDetailed ? report : detailed.currentData;
  if (!source) {
    if (detailed.error) {
      return <Alert variant="danger">{serverMessageOr(detailed.error, t('reports.allFailed'))}</Alert>;
    }
    return <PageSpinner />;
  }
  return (
    <ReportTable
      columns={source.columns}
      rows={source.rows}
      totalRows={source.totalRows}
      caption={t('reports.allCaption')}
    />
  );
}

interface Props {
  report: Report;
  query: ReportQuery;
  showAll: boolean;
  onShowAll: (all: boolean) => void;
}

export function ResultsSection({ report, query, showAll, onShowAll }: Props) {
  const { t } = useTranslation('results');
  const total = report.summary.totalResults;
  const more = total > report.recentResults.length;
  return (
    <Card as="section" className="shadow-sm" aria-labelledby="recent-results-title">
      <Card.Body>
        <div className="d-flex flex-wrap justify-content-between align-items-center gap-2 mb-3">
          <h2 id="recent-results-title" className="h5 mb-0">
            {showAll ? t('reports.allResults', { total }) : t('reports.recentResults')}
          </h2>
          {showAll ? (
            <Button size="sm" variant="outline-secondary" onClick={() => onShowAll(false)}>
              {t('reports.recentOnly')}
            </Button>
          ) : (
            more && (
              <Button size="sm" variant="outline-primary" onClick={() => onShowAll(true)}>
                {t('reports.viewAll', { total })}
              </Button>
            )
          )}
        </div>
        {showAll ? <AllResults report={report} query={query} /> : <RecentTable results={report.recentResults} />}
      </Card.Body>
    </Card>
  );
}
