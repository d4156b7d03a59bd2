import { useNavigate } from 'react-router';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import { useTranslation } from '../../i18n/react';

export function PracticeNotFound() {
  const navigate = useNavigate();
  const { t } = useTranslation('take');
  return (
    <Card className="shadow-sm text-center">
      <Card.Body className="p-5">
        <h1 className="h4">{t('practice.notFound')}</h1>
        <Button variant="outline-primary" onClick={() => void navigate(-1)}>
          {t('practice.goBack')}
        </Button>
      </Card.Body>
    </Card>
  );
}
