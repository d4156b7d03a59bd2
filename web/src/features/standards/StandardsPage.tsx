// /admin/standards (district admin): import a CASE framework (file or provider URL) with its
// counts or the refusal, the district's frameworks (its own and the platform's), a search of the
// catalogue, and the district's mastery of each standard per class.
import Alert from 'react-bootstrap/Alert';
import Badge from 'react-bootstrap/Badge';
import Card from 'react-bootstrap/Card';
import Spinner from 'react-bootstrap/Spinner';
import Table from 'react-bootstrap/Table';
import { serverMessageOr } from '../../api/apiError';
import { DistrictMastery } from './DistrictMastery';
import { FrameworkImport } from './FrameworkImport';
import { StandardsSearch } from './StandardsSearch';
import { useGetFrameworksQuery, type Framework } from './standardsApi';
import { formatDate } from '../../i18n/format';

const dateOf = (iso: string) => formatDate(iso);

function FrameworkTable({ frameworks }: { frameworks: readonly Framework[] }) {
  return (
    <Table size="sm" responsive className="mb-0 align-middle" aria-label="Frameworks">
      <thead>
        <tr>
          <th scope="col">Framework</th>
          <th scope="col">Subjects</th>
          <th scope="col" className="text-end">
            Items
          </th>
          <th scope="col">Updated</th>
        </tr>
      </thead>
      <tbody>
        {frameworks.map((f) => (
          <tr key={f.id}>
            <th scope="row" className="fw-normal">
              <span className="fw-semibold">{f.title}</span>
              {f.scope === 'platform' && (
                <Badge bg="secondary-subtle" text="secondary-emphasis" className="ms-2 border">
                  For everyone
                </Badge>
              )}
              <span className="d-block small text-body-secondary">
                {[f.creator, f.version && `version ${f.version}`].filter(Boolean).join(', ')}
              </span>
            </th>
            <td>{f.subjects.join(', ') || '—'}</td>
            <td className="text-end">{f.itemCount}</td>
            <td>{dateOf(f.updatedAt)}</td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}

export function StandardsPage() {
  const frameworks = useGetFrameworksQuery();
  const list = frameworks.data ?? [];
  const subjects = [...new Set(list.flatMap((f) => f.subjects))].sort();
  return (
    <>
      <h1 className="h2 mb-1">Standards</h1>
      <p className="text-body-secondary mb-4">
        Your district’s standards frameworks: teachers align assessments and questions to them, and mastery of each
        standard is tracked over time
      </p>
      <FrameworkImport />
      <Card className="shadow-sm mb-4" as="section" aria-labelledby="frameworks-title">
        <Card.Body>
          <Card.Title as="h2" className="h5" id="frameworks-title">
            Frameworks
          </Card.Title>
          {frameworks.isLoading ? (
            <Spinner animation="border" size="sm" role="status">
              <span className="visually-hidden">Loading frameworks…</span>
            </Spinner>
          ) : frameworks.isError ? (
            <Alert variant="danger" className="mb-0">
              {serverMessageOr(frameworks.error, 'Failed to load the frameworks')}
            </Alert>
          ) : list.length === 0 ? (
            <p className="text-body-secondary mb-0" data-testid="frameworks-empty">
              No frameworks yet: import your state’s CASE package above.
            </p>
          ) : (
            <FrameworkTable frameworks={list} />
          )}
        </Card.Body>
      </Card>
      {list.length > 0 && <StandardsSearch subjects={subjects} />}
      <DistrictMastery />
    </>
  );
}
