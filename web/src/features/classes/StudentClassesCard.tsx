// The student dashboard's My Classes card.
import Badge from 'react-bootstrap/Badge';
import Card from 'react-bootstrap/Card';
import ListGroup from 'react-bootstrap/ListGroup';
import { useGetStudentClassesQuery } from '../student';
import { useTranslation } from '../../i18n/react';

export function StudentClassesCard() {
  const { t } = useTranslation('student');
  const { data: enrolments = [] } = useGetStudentClassesQuery();
  return (
    <Card className="shadow-sm" as="section" aria-labelledby="my-classes-title">
      <Card.Header className="bg-body">
        <h2 id="my-classes-title" className="h5 mb-0">
          {t('myClasses.title')}
        </h2>
      </Card.Header>
      {enrolments.length === 0 ? (
        <Card.Body className="text-body-secondary">{t('myClasses.none')}</Card.Body>
      ) : (
        <ListGroup variant="flush">
          {enrolments.map((enrolment) => (
            <ListGroup.Item key={enrolment.id} data-testid="student-class">
              <div className="d-flex align-items-center gap-2">
                <span className="fw-semibold flex-grow-1">{enrolment.class.name}</span>
                <Badge bg="primary-subtle" text="primary-emphasis">
                  {enrolment.class.subject}
                </Badge>
              </div>
              <div className="small text-body-secondary">
                {enrolment.class.period && (
                  <span className="me-3">{t('period', { period: enrolment.class.period })}</span>
                )}
                <span>{t('myClasses.teacher', { name: enrolment.class.teacherName || t('myClasses.unknown') })}</span>
              </div>
            </ListGroup.Item>
          ))}
        </ListGroup>
      )}
    </Card>
  );
}
