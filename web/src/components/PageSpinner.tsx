import Spinner from 'react-bootstrap/Spinner';
import { useTranslation } from '../i18n/react';

export function PageSpinner() {
  const { t } = useTranslation('common');
  return (
    <div className="d-flex justify-content-center align-items-center py-5" role="status" aria-live="polite">
      <Spinner animation="border" variant="primary" />
      <span className="visually-hidden">{t('loading')}</span>
    </div>
  );
}
