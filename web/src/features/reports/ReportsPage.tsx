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
import { DEFAULT_REPORT_QUERY, REPORT_TYPE_LABELS, TIMEFRAME_LABELS } from './reportLabels';
import { ReportSummary } from './ReportSummary';
import { ReportTable } from './ReportTable';
import { ResultsSection } from './ResultsSection';

const DEFAULT_FILTERS: ReportFilterState = { allClasses: true, ...DEFAULT_REPORT_QUERY };

const LINKS = [
  { to: '/', label: 'Dashboard' },
  { to: '/classes', label: 'Classes' },
  { to: '/assessments', label: 'Assessments' },
  { to: '/students', label: 'Students' },
];

function ReportView({ report, query, updating }: { report: Report; query: ReportQuery; updating: boolean }) {
  const classNames = report.classes.map((c) => c.name).join(', ');
  const s = report.summary;
  return (
    <Card as="section" className="shadow-sm mb-4" aria-labelledby="report-title" aria-busy={updating}>
      <Card.Body>
        <div className="d-flex flex-wrap justify-content-between align-items-start gap-2 mb-3">
          <div>
            <h2 id="report-title" className="h4 mb-1">
              {report.title}
            </h2>
            <div className="small text-body-secondary">
              {REPORT_TYPE_LABELS[report.type]} · {TIMEFRAME_LABELS[report.timeframe]} · {classNames || 'No classes'} ·
              Generated {new Date(report.generatedAt).toLocaleString()}
              {updating && ' · Updating...'}
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
        <ReportTable columns={report.columns} rows={report.rows} totalRows={report.totalRows} caption={report.title} />
      </Card.Body>
    </Card>
  );
}

export function ReportsPage() {
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
          <h1 className="h2 mb-1">Reports</h1>
          <p className="text-body-secondary mb-0">Generate, review and export reports of your students&apos; results</p>
        </div>
        <nav aria-label="Related pages" className="d-flex flex-wrap gap-2">
          {LINKS.map((l) => (
            <Link key={l.to} to={l.to} className="btn btn-outline-secondary btn-sm">
              {l.label}
            </Link>
          ))}
        </nav>
      </div>
      <Row className="g-4">
        <Col lg={3}>
          <Card className="shadow-sm">
            <Card.Body>
              <h2 className="h5">Filters</h2>
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
            <Alert variant="danger">{serverMessageOr(error, 'Failed to generate report')}</Alert>
          ) : (
            <PageSpinner />
          )}
        </Col>
      </Row>
    </>
  );
}
