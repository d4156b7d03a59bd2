// The class page's "Accommodations" section (#32 item 1): the class's students and the
// accommodations each has, at a glance, an edit dialog per student (loaded when first opened),
// and "Print for a substitute": a clean list of the students who have any, printed alone (the
// rest of the page is hidden from the printer while it prints, theme.css "print-sheet").
import { useEffect, useState } from 'react';
import { createPortal } from 'react-dom';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Table from 'react-bootstrap/Table';
import { serverMessageOr } from '../../api/apiError';
import { lazyModal } from '../../app/lazyModal';
import { useGetClassAccommodationsQuery, type ClassStudentAccommodations } from './accommodationsApi';
import { accommodationList, studentName } from './labels';
import { formatDate } from '../../i18n/format';
import { useTranslation } from '../../i18n/react';

const AccommodationsEditDialog = lazyModal(
  () => import('./AccommodationsEditDialog').then((m) => m.AccommodationsEditDialog),
  (props) => props.student !== null,
);

/** The printed sheet: rendered at the end of <body>, shown only by the printer while printing. */
function SubstituteSheet({ className, students }: { className: string; students: ClassStudentAccommodations[] }) {
  const { t } = useTranslation('teacher');
  const listed = students.filter((s) => accommodationList(s, t).length > 0);
  return createPortal(
    // The sheet prints in the interface's language (the page around it is not printed).
    <div className="print-sheet" data-testid="substitute-sheet">
      <h1>{t('accommodations.sheet.title', { name: className })}</h1>
      <p>{t('accommodations.sheet.intro', { date: formatDate(new Date(), { dateStyle: 'long' }) })}</p>
      {listed.length === 0 ? (
        <p>{t('accommodations.sheet.none')}</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">{t('accommodations.student')}</th>
              <th scope="col">{t('accommodations.title')}</th>
            </tr>
          </thead>
          <tbody>
            {listed.map((s) => (
              <tr key={s.studentId}>
                <th scope="row">{studentName(s, t)}</th>
                <td>{accommodationList(s, t).join('; ')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {listed.length < students.length && listed.length > 0 && (
        <p>{t('accommodations.sheet.others', { count: students.length - listed.length })}</p>
      )}
    </div>,
    document.body,
  );
}

export function ClassAccommodationsSection({ classId, className }: { classId: string; className: string }) {
  const { data: students, error, isLoading } = useGetClassAccommodationsQuery(classId);
  const [editing, setEditing] = useState<ClassStudentAccommodations | null>(null);
  const [printing, setPrinting] = useState(false);
  const { t } = useTranslation('teacher');

  // The sheet is in the page while the printer prints (window.print() returns once the print
  // dialog is done); the body's class shows it to the printer alone.
  useEffect(() => {
    if (!printing) return;
    document.body.classList.add('printing-sheet');
    try {
      window.print();
    } finally {
      document.body.classList.remove('printing-sheet');
      setPrinting(false);
    }
  }, [printing]);

  const withAny = (students ?? []).filter((s) => accommodationList(s, t).length > 0).length;
  return (
    <Card className="shadow-sm mb-4">
      <Card.Header className="bg-body d-flex flex-wrap align-items-center gap-2">
        <h2 className="h5 mb-0 me-auto" id="accommodations-heading">
          {t('accommodations.title')}
        </h2>
        <Button
          variant="outline-secondary"
          size="sm"
          onClick={() => setPrinting(true)}
          disabled={!students || students.length === 0}
        >
          {t('accommodations.print')}
        </Button>
      </Card.Header>
      <Card.Body>
        <p className="text-body-secondary small">{t('accommodations.intro')}</p>
        {error ? (
          <Alert variant="danger" className="mb-0">
            {serverMessageOr(error, t('accommodations.loadFailed'))}
          </Alert>
        ) : isLoading || !students ? (
          <p className="mb-0">{t('accommodations.loading')}</p>
        ) : students.length === 0 ? (
          <p className="mb-0">{t('accommodations.noStudents')}</p>
        ) : (
          <>
            <p className="small mb-2">
              {withAny === 0
                ? t('accommodations.noneHave')
                : t('accommodations.someHave', { count: withAny, total: students.length })}
            </p>
            <Table size="sm" responsive className="mb-0 align-middle" aria-labelledby="accommodations-heading">
              <thead>
                <tr>
                  <th scope="col">{t('accommodations.student')}</th>
                  <th scope="col">{t('accommodations.title')}</th>
                  <th scope="col">
                    <span className="visually-hidden">{t('logins.actions')}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {students.map((s) => {
                  const list = accommodationList(s, t);
                  return (
                    <tr key={s.studentId}>
                      <th scope="row" className="fw-normal text-break">
                        {studentName(s, t)}
                      </th>
                      <td className={list.length ? '' : 'text-body-secondary'}>
                        {list.join(', ') || t('accommodations.none')}
                      </td>
                      <td className="text-end">
                        <Button
                          variant="link"
                          size="sm"
                          onClick={() => setEditing(s)}
                          aria-label={t('accommodations.editLabel', { name: studentName(s, t) })}
                        >
                          {t('accommodations.edit')}
                        </Button>
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </Table>
          </>
        )}
      </Card.Body>
      {printing && students && <SubstituteSheet className={className} students={students} />}
      <AccommodationsEditDialog classId={classId} student={editing} onHide={() => setEditing(null)} />
    </Card>
  );
}
