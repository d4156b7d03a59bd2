// The results panel of one class (teacher dashboard, class detail): optionally the share of results
// at each level, then the student progress grid. While shown it follows the class's results live.
import Alert from 'react-bootstrap/Alert';
import Card from 'react-bootstrap/Card';
import Col from 'react-bootstrap/Col';
import Row from 'react-bootstrap/Row';
import { serverMessageOr } from '../../api/apiError';
import { PageSpinner } from '../../components/PageSpinner';
import { StudentProgressGrid } from './StudentProgressGrid';
import { bandPercents, type LevelLabel, type LevelVariant } from './levels';
import { useGetClassGridQuery, useGetClassResultsQuery } from './resultsApi';
import { useLiveResults } from './useLiveResults';
import { useTranslation } from '../../i18n/react';
import { useLabel } from '../../i18n/labels';
import { formatPercent } from '../../i18n/format';

function BandStat({ label, value, variant }: { label: LevelLabel; value: number; variant: LevelVariant }) {
  const levelName = useLabel();
  return (
    <Col>
      <div className={`border border-${variant} bg-${variant}-subtle rounded p-3 h-100`}>
        <div className="small text-body-secondary">{levelName(label)}</div>
        <div className={`fs-4 fw-bold text-${variant}-emphasis`} data-testid={`band-${label}`}>
          {formatPercent(value)}
        </div>
      </div>
    </Col>
  );
}

/** Each level's share of the class's results. */
function ResultBands({ classId }: { classId: string }) {
  const { t } = useTranslation('results');
  const { currentData: results, error } = useGetClassResultsQuery(classId);
  if (!results) {
    if (error) return <Alert variant="danger">{serverMessageOr(error, t('page.loadFailed'))}</Alert>;
    return <PageSpinner />;
  }
  const bands = bandPercents(results);
  return (
    <section aria-label={t('charts.byLevel')} className="mb-4">
      <p className="small text-body-secondary mb-2">{t('panel.submitted', { count: bands.total })}</p>
      <Row xs={1} sm={3} className="g-3">
        <BandStat label="Above Standard" value={bands.above} variant="success" />
        <BandStat label="At Standard" value={bands.at} variant="warning" />
        <BandStat label="Below Standard" value={bands.below} variant="danger" />
      </Row>
    </section>
  );
}

function GridLoader({ classId }: { classId: string }) {
  const { t } = useTranslation('results');
  // currentData: after a class switch, never the previous class's grid.
  const { currentData: grid, error } = useGetClassGridQuery(classId);
  if (grid) return <StudentProgressGrid grid={grid} />;
  if (error) return <Alert variant="danger">{serverMessageOr(error, t('panel.gridFailed'))}</Alert>;
  return <PageSpinner />;
}

export function ClassResultsPanel({ classId, showBands = false }: { classId: string; showBands?: boolean }) {
  const { t } = useTranslation('results');
  useLiveResults(classId);
  return (
    <Card className="shadow-sm" as="section" aria-labelledby="class-results-heading">
      <Card.Body>
        <h2 id="class-results-heading" className="h5 mb-3">
          {t('panel.title')}
        </h2>
        {showBands && <ResultBands classId={classId} />}
        <h3 className="h6 mb-2">{t('panel.progress')}</h3>
        <GridLoader classId={classId} />
      </Card.Body>
    </Card>
  );
}
