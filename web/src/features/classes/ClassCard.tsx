// One class on /classes: name, subject, period, code and counts; edit, archive/restore and delete
// (delete: its owner only; a class the teacher co-teaches is marked "Co-teaching").
import { Link } from 'react-router';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import { formatDate, periodLabel } from './classStats';
import type { ClassItem } from './classesApi';
import { ArchiveIcon, PencilIcon, RestoreIcon, TrashIcon } from './icons';
import { useTranslation } from '../../i18n/react';

interface ClassCardProps {
  cls: ClassItem;
  restoring?: boolean;
  onEdit: (cls: ClassItem) => void;
  onArchive: (cls: ClassItem) => void;
  onRestore: (cls: ClassItem) => void;
  onDelete: (cls: ClassItem) => void;
}

export function ClassCard({ cls, restoring = false, onEdit, onArchive, onRestore, onDelete }: ClassCardProps) {
  const { t } = useTranslation('teacher');
  const period = periodLabel(cls.period, t);
  return (
    <Card className="shadow-sm h-100" as="article" aria-label={cls.name}>
      <Card.Body className="d-flex flex-column">
        <div className="d-flex align-items-start gap-2 mb-2">
          <div className="flex-grow-1">
            <Card.Title as="h2" className="h5 mb-1">
              {cls.name}
            </Card.Title>
            <div className="d-flex flex-wrap align-items-center gap-2 small text-body-secondary">
              <Badge bg="primary-subtle" text="primary-emphasis">
                {cls.subject}
              </Badge>
              {period && <span>{period}</span>}
              {cls.archived && <Badge bg="secondary">{t('classes.card.archived')}</Badge>}
              {cls.coTeaching && (
                <Badge
                  bg="info-subtle"
                  text="info-emphasis"
                  title={t('classes.card.ownedBy', { name: cls.teacherName ?? t('classes.card.anotherTeacher') })}
                >
                  {t('classes.card.coTeaching')}
                </Badge>
              )}
            </div>
          </div>
          <Button
            variant="link"
            size="sm"
            className="p-1 text-body-secondary"
            aria-label={t('classes.card.editLabel', { name: cls.name })}
            title={t('classes.card.editTitle')}
            onClick={() => onEdit(cls)}
          >
            <PencilIcon />
          </Button>
        </div>
        <dl className="row small mb-3">
          <dt className="col-6 fw-normal text-body-secondary">{t('classes.card.joinCode')}</dt>
          <dd className="col-6 mb-1 font-monospace fw-semibold">{cls.joinCode}</dd>
          <dt className="col-6 fw-normal text-body-secondary">{t('classes.card.students')}</dt>
          <dd className="col-6 mb-1">{cls.studentCount}</dd>
          <dt className="col-6 fw-normal text-body-secondary">{t('classes.card.assessments')}</dt>
          <dd className="col-6 mb-1">{cls.assessmentCount}</dd>
          <dt className="col-6 fw-normal text-body-secondary">{t('classes.card.created')}</dt>
          <dd className="col-6 mb-0">{formatDate(cls.createdAt)}</dd>
        </dl>
        <div className="mt-auto d-flex align-items-center gap-2">
          {cls.archived ? (
            <Button
              variant="outline-primary"
              size="sm"
              className="flex-grow-1"
              disabled={restoring}
              aria-label={t('classes.card.restoreLabel', { name: cls.name })}
              onClick={() => onRestore(cls)}
            >
              <RestoreIcon />{' '}
              <span className="ms-1">{restoring ? t('classes.card.restoring') : t('classes.card.restore')}</span>
            </Button>
          ) : (
            <>
              <Link
                to={`/class/${cls.id}`}
                className="btn btn-primary btn-sm flex-grow-1"
                aria-label={t('classes.card.detailsLabel', { name: cls.name })}
              >
                {t('classes.card.details')}
              </Link>
              <Button
                variant="outline-secondary"
                size="sm"
                aria-label={t('classes.card.archiveLabel', { name: cls.name })}
                title={t('classes.card.archiveTitle')}
                onClick={() => onArchive(cls)}
              >
                <ArchiveIcon />
              </Button>
            </>
          )}
          {!cls.coTeaching && (
            <Button
              variant="outline-danger"
              size="sm"
              aria-label={t('classes.card.deleteLabel', { name: cls.name })}
              title={t('classes.card.deleteTitle')}
              onClick={() => onDelete(cls)}
            >
              <TrashIcon />
            </Button>
          )}
        </div>
      </Card.Body>
    </Card>
  );
}
