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
import { formatDate, formatNumber } from '../../i18n/format';
import { useTranslation } from '../../i18n/react';

const dateOf = (iso: string) => formatDate(iso);

function FrameworkTable({ frameworks }: { frameworks: readonly Framework[] }) {
  const { t } = useTranslation('bank');
  return (
    <Table size="sm" responsive className="mb-0 align-middle" aria-label={t('standards.frameworks.title')}>
      <thead>
        <tr>
          <th scope="col">{t('standards.frameworks.framework')}</th>
          <th scope="col">{t('standards.frameworks.subjects')}</th>
          <th scope="col" className="text-end">
            {t('standards.frameworks.items')}
          </th>
          <th scope="col">{t('standards.frameworks.updated')}</th>
        </tr>
      </thead>
      <tbody>
        {frameworks.map((f) => (
          <tr key={f.id}>
            <th scope="row" className="fw-normal">
              <span className="fw-semibold">{f.title}</span>
              {f.scope === 'platform' && (
                <Badge bg="secondary-subtle" text="secondary-emphasis" className="ms-2 border">
                  {t('standards.frameworks.forEveryone')}
                </Badge>
              )}
              <span className="d-block small text-body-secondary">
                {[f.creator, f.version && t('standards.frameworks.version', { version: f.version })]
                  .filter(Boolean)
                  .join(', ')}
              </span>
            </th>
            <td>{f.subjects.join(', ') || '—'}</td>
            <td className="text-end">{formatNumber(f.itemCount)}</td>
            <td>{dateOf(f.updatedAt)}</td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}

export function StandardsPage() {
  const { t } = useTranslation('bank');
  const frameworks = useGetFrameworksQuery();
  const list = frameworks.data ?? [];
  const subjects = [...new Set(list.flatMap((f) => f.subjects))].sort();
  return (
    <>
      <h1 className="h2 mb-1">{t('standards.page.title')}</h1>
      <p className="text-body-secondary mb-4">{t('standards.page.intro')}</p>
      <FrameworkImport />
      <Card className="shadow-sm mb-4" as="section" aria-labelledby="frameworks-title">
        <Card.Body>
          <Card.Title as="h2" className="h5" id="frameworks-title">
            {t('standards.frameworks.title')}
          </Card.Title>
          {frameworks.isLoading ? (
            <Spinner animation="border" size="sm" role="status">
              <span className="visually-hidden">{t('standards.frameworks.loading')}</span>
            </Spinner>
          ) : frameworks.isError ? (
            <Alert variant="danger" className="mb-0">
              {serverMessageOr(frameworks.error, t('standards.frameworks.failed'))}
            </Alert>
          ) : list.length === 0 ? (
            <p className="text-body-secondary mb-0" data-testid="frameworks-empty">
              {t('standards.frameworks.empty')}
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
