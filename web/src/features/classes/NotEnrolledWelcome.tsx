// The student dashboard when not enrolled in any class.
import { Link } from 'react-router';
import Card from 'react-bootstrap/Card';
import { useTranslation } from '../../i18n/react';

export function NotEnrolledWelcome({ firstName }: { firstName?: string | undefined }) {
  const { t } = useTranslation('student');
  return (
    <Card className="shadow-sm text-center">
      <Card.Body className="p-5">
        <h2 className="h3">{firstName ? t('welcome.titleName', { name: firstName }) : t('welcome.title')}</h2>
        <p className="text-body-secondary mb-4">{t('welcome.text')}</p>
        <div className="d-flex flex-wrap justify-content-center gap-2">
          <Link to="/join-class" className="btn btn-primary">
            {t('welcome.enterCode')}
          </Link>
          <Link to="/browse-classes" className="btn btn-outline-primary">
            {t('welcome.browse')}
          </Link>
        </div>
      </Card.Body>
    </Card>
  );
}
