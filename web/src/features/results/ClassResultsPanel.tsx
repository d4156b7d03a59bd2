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

function BandStat({ label, value, variant }: { label: LevelLabel; value: number; variant: LevelVariant }) {
  return (
    <Col>
      <div className={`border border-${variant} bg-${variant}-subtle rounded p-3 h-100`}>
        <div className="small text-body-secondary">{label}</div>
        <div className={`fs-4 fw-bold text-${variant}-emphasis`} data-testid={`band-${label}`}>
          {value}%
        </div>
      </div>
    </Col>
  );
}

/** Each level's share of the class's results. */
function ResultBands({ classId }: { classId: string }) {
  const { currentData: results, error } = useGetClassResultsQuery(classId);
  if (!results) {
    if (error) return <Alert variant="danger">{serverMessageOr(error, 'Failed to load results')}</Alert>;
    return <PageSpinner />;
  }
  const bands = bandPercents(results);
  return (
    <section aria-label="Results by performance level" className="mb-4">
      <p className="small text-body-secondary mb-2">
        {bands.total} {bands.total === 1 ? 'result' : 'results'} submitted
      </p>
      <Row xs={1} sm={3} className="g-3">
        <BandStat label="Above Standard" value={bands.above} variant="success" />
        <BandStat label="At Standard" value={bands.at} variant="warning" />
        <BandStat label="Below Standard" value={bands.below} variant="danger" />
      </Row>
    </section>
  );
}

function GridLoader({ classId }: { classId: string }) {
  // currentData: after a class switch, never the previous class's grid.
  const { currentData: grid, error } = useGetClassGridQuery(classId);
  if (grid) return <StudentProgressGrid grid={grid} />;
  if (error) return <Alert variant="danger">{serverMessageOr(error, 'Failed to load student progress')}</Alert>;
  return <PageSpinner />;
}

export function ClassResultsPanel({ classId, showBands = false }: { classId: string; showBands?: boolean }) {
  useLiveResults(classId);
  return (
    <Card className="shadow-sm" as="section" aria-labelledby="class-results-heading">
      <Card.Body>
        <h2 id="class-results-heading" className="h5 mb-3">
          Class Results
        </h2>
        {showBands && <ResultBands classId={classId} />}
        <h3 className="h6 mb-2">Student Progress</h3>
        <GridLoader classId={classId} />
      </Card.Body>
    </Card>
  );
}
