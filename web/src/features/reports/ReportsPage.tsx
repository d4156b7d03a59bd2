// /reports: filters, a generated report (summary, levels chart, table), the
// newest results with View All, and CSV/PDF exports of the report on screen.
import { useState } from 'react';
import { Link } from 'react-router';
import Alert from 'react-bootstrap/Alert';
import Card from 'react-bootstrap/Card';
import Col from 'react-bootstrap/Col';
import Row from 'react-bootstrap/Row';
import { serverMessageOr } from '../../api/apiError';
import { PageSpinner } from '../../components/PageSpinner';
import { LevelsChart, LevelsOverTimeChart } from '../assessmentResults';
import { useGetClassesQuery } from '../classes';
import {
  MAX_LIVE_CLASSES,
  reportArg,
  reportParams,
  useGetReportQuery,
  type Report,
  type ReportQuery,
  useLiveResults,
} from '../results';
import { ExportLinks } from './ExportLinks';
import { ReportFilters, toReportQuery, type ReportFilterState } from './ReportFilters';
import { DEFAULT_REPORT_QUERY } from './reportLabels';
import { useReportTitle } from './serverText';
import { useTranslation } from '../../i18n/react';
import { formatDateTime } from '../../i18n/format';
import { ReportSummary } from './ReportSummary';
import { ReportTable } from './ReportTable';
import { ResultsSection } from './ResultsSection';

const DEFAULT_FILTERS: ReportFilterState = { allClasses: true, ...DEFAULT_REPORT_QUERY };

const LINKS = [
  { to: '/', label: 'Dashboard' },
  { to: '/classes', label: 'Classes' },
  { to: '/assessments', label: 'Assessments' },
  { to: '/students', label: 'Students' },
] as const;

/** As toLocaleString() showed it (e.g. 3/6/2024, 10:00:00 AM), in the interface's language. */
const GENERATED_AT: Intl.DateTimeFormatOptions = {
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  second: '2-digit',
};

function ReportView({ report, query, updating }: { report: Report; query: ReportQuery; updating: boolean }) {
  const { t } = useTranslation('results');
  const reportTitle = useReportTitle();
  const classNames = report.classes.map((c) => c.name).join(', ');
  const s = report.summary;
  return (
    <Card as="section" className="shadow-sm mb-4" aria-labelledby="report-title" aria-busy={updating}>
      <Card.Body>
        <div className="d-flex flex-wrap justify-content-between align-items-start gap-2 mb-3">
          <div>
            <h2 id="report-title" className="h4 mb-1">
              {reportTitle(report.title)}
            </h2>
            <div className="small text-body-secondary">
              {t(`reports.type.${report.type}`)} · {t(`reports.timeframe.${report.timeframe}`)} ·{' '}
              {classNames || t('reports.noClasses')} ·{' '}
              {t('reports.generated', { when: formatDateTime(report.generatedAt, GENERATED_AT) })}
              {updating && ` · ${t('reports.updating')}`}
            </div>
          </div>
          <ExportLinks query={query} />
        </div>
        <div className="mb-4">
          <ReportSummary summary={s} />
        </div>
        {s.totalResults > 0 && (
          <div className="row g-4 mb-4">
            <div className="col-lg-6">
              <LevelsChart
                levels={{
                  above: s.aboveStandard,
                  at: s.atStandard,
                  below: s.belowStandard,
                  abovePercent: s.abovePercent,
                  atPercent: s.atPercent,
                  belowPercent: s.belowPercent,
                }}
              />
            </div>
            <div className="col-lg-6">
              <LevelsOverTimeChart periods={report.levelsOverTime} />
            </div>
          </div>
        )}
        <ReportTable
          columns={report.columns}
          rows={report.rows}
          totalRows={report.totalRows}
          caption={reportTitle(report.title)}
        />
      </Card.Body>
    </Card>
  );
}

export function ReportsPage() {
  const { t } = useTranslation('results');
  const classes = useGetClassesQuery();
  const [filters, setFilters] = useState<ReportFilterState>(DEFAULT_FILTERS);
  // The query of the report on screen; exports and View All follow it, not unsubmitted filters.
  const [query, setQuery] = useState<ReportQuery>(DEFAULT_REPORT_QUERY);
  const [showAll, setShowAll] = useState(false);
  const { currentData: report, isFetching, error, refetch } = useGetReportQuery(reportArg(query));
  // The chosen classes, in one stream (all of the teacher's classes: none followed).
  useLiveResults(query.classIds.length > 0 && query.classIds.length <= MAX_LIVE_CLASSES ? query.classIds : undefined);

  const generate = () => {
    const next = toReportQuery(filters);
    setShowAll(false);
    // The same filters again still produce a fresh report.
    if (reportParams(next) === reportParams(query)) void refetch();
    else setQuery(next);
  };

  return (
    <>
      <div className="d-flex flex-wrap justify-content-between align-items-start gap-2 mb-4">
        <div>
          <h1 className="h2 mb-1">{t('reports.title')}</h1>
          <p className="text-body-secondary mb-0">{t('reports.subtitle')}</p>
        </div>
        <nav aria-label={t('reports.related')} className="d-flex flex-wrap gap-2">
          {LINKS.map((l) => (
            <Link key={l.to} to={l.to} className="btn btn-outline-secondary btn-sm">
              {t(`common:nav.${l.label}`)}
            </Link>
          ))}
        </nav>
      </div>
      <Row className="g-4">
        <Col lg={3}>
          <Card className="shadow-sm">
            <Card.Body>
              <h2 className="h5">{t('reports.filters.title')}</h2>
              <ReportFilters
                classes={classes.data}
                classesLoading={classes.isLoading}
                classesFailed={classes.isError}
                value={filters}
                onChange={setFilters}
                onGenerate={generate}
                generating={isFetching}
              />
            </Card.Body>
          </Card>
        </Col>
        <Col lg={9}>
          {report ? (
            <>
              <ReportView report={report} query={query} updating={isFetching} />
              <ResultsSection report={report} query={query} showAll={showAll} onShowAll={setShowAll} />
            </>
          ) : error && !isFetching ? (
            <Alert variant="danger">{serverMessageOr(error, t('reports.failed'))}</Alert>
          ) : (
            <PageSpinner />
          )}
        </Col>
      </Row>
    </>
  );
}
