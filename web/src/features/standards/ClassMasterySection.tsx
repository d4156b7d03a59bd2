// The class page's Mastery section: the heatmap of the class's students × standards with its CSV
// export; loading, error and empty states as the results panel has them.
import { Suspense } from 'react';
import Alert from 'react-bootstrap/Alert';
import Card from 'react-bootstrap/Card';
import Spinner from 'react-bootstrap/Spinner';
import { serverMessageOr } from '../../api/apiError';
import { CsvDownloadLink } from '../../components/CsvDownloadLink';
import { useTranslation } from '../../i18n/react';
import { MasteryHeatmap } from './MasteryHeatmap';
import { classMasteryExportPath, useGetClassMasteryQuery } from './standardsApi';

/** Its texts load with the standards' (the class page's own may already be there): nothing shows until then. */
export function ClassMasterySection({ classId }: { classId: string }) {
  return (
    <Suspense fallback={null}>
      <ClassMastery classId={classId} />
    </Suspense>
  );
}

function ClassMastery({ classId }: { classId: string }) {
  const { t } = useTranslation('bank');
  const mastery = useGetClassMasteryQuery(classId);
  const hasData = (mastery.data ?? []).some((row) => row.standards.length > 0);
  return (
    <Card className="shadow-sm mt-4" as="section" aria-labelledby="class-mastery-title">
      <Card.Body>
        <div className="d-flex flex-wrap align-items-center justify-content-between gap-2 mb-3">
          <Card.Title as="h2" className="h5 mb-0" id="class-mastery-title">
            {t('standards.classMastery.title')}
          </Card.Title>
          {hasData && (
            <CsvDownloadLink href={classMasteryExportPath(classId)}>{t('standards.exportMastery')}</CsvDownloadLink>
          )}
        </div>
        {mastery.isLoading ? (
          <div className="text-center py-3">
            <Spinner animation="border" size="sm" role="status">
              <span className="visually-hidden">{t('standards.loadingMastery')}</span>
            </Spinner>
          </div>
        ) : mastery.isError ? (
          <Alert variant="danger" className="mb-0">
            {serverMessageOr(mastery.error, t('standards.masteryFailed'))}
          </Alert>
        ) : (
          <MasteryHeatmap rows={mastery.data ?? []} />
        )}
      </Card.Body>
    </Card>
  );
}
