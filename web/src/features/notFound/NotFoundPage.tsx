import { Link } from 'react-router';
import Card from 'react-bootstrap/Card';
import { useTranslation } from '../../i18n/react';

export function NotFoundPage() {
  const { t } = useTranslation('common');
  return (
    <div className="d-flex justify-content-center py-5 px-3">
      <Card className="shadow-sm" style={{ maxWidth: 480, width: '100%' }}>
        <Card.Body className="p-4">
          <h1 className="h3 mb-2">{t('notFound.title')}</h1>
          <p className="text-body-secondary">{t('notFound.text')}</p>
          <Link to="/" className="btn btn-primary">
            {t('notFound.home')}
          </Link>
        </Card.Body>
      </Card>
    </div>
  );
}
