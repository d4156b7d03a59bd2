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

const AccommodationsEditDialog = lazyModal(
  () => import('./AccommodationsEditDialog').then((m) => m.AccommodationsEditDialog),
  (props) => props.student !== null,
);

/** The printed sheet: rendered at the end of <body>, shown only by the printer while printing. */
function SubstituteSheet({ className, students }: { className: string; students: ClassStudentAccommodations[] }) {
  const listed = students.filter((s) => accommodationList(s).length > 0);
  return createPortal(
    <div className="print-sheet" data-testid="substitute-sheet">
      <h1>Accommodations: {className}</h1>
      <p>
        For the substitute teacher, printed {formatDate(new Date(), { dateStyle: 'long' })}. Keep this list private:
        students do not see each other&apos;s accommodations.
      </p>
      {listed.length === 0 ? (
        <p>No student in this class has accommodations.</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">Student</th>
              <th scope="col">Accommodations</th>
            </tr>
          </thead>
          <tbody>
            {listed.map((s) => (
              <tr key={s.studentId}>
                <th scope="row">{studentName(s)}</th>
                <td>{accommodationList(s).join('; ')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {listed.length < students.length && listed.length > 0 && (
        <p>The other {students.length - listed.length} students of the class have none.</p>
      )}
    </div>,
    document.body,
  );
}

export function ClassAccommodationsSection({ classId, className }: { classId: string; className: string }) {
  const { data: students, error, isLoading } = useGetClassAccommodationsQuery(classId);
  const [editing, setEditing] = useState<ClassStudentAccommodations | null>(null);
  const [printing, setPrinting] = useState(false);

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

  const withAny = (students ?? []).filter((s) => accommodationList(s).length > 0).length;
  return (
    <Card className="shadow-sm mb-4">
      <Card.Header className="bg-body d-flex flex-wrap align-items-center gap-2">
        <h2 className="h5 mb-0 me-auto" id="accommodations-heading">
          Accommodations
        </h2>
        <Button
          variant="outline-secondary"
          size="sm"
          onClick={() => setPrinting(true)}
          disabled={!students || students.length === 0}
        >
          Print for a substitute
        </Button>
      </Card.Header>
      <Card.Body>
        <p className="text-body-secondary small">
          Set once per student, they apply to every assessment and practice the student takes. Classmates never see who
          has which.
        </p>
        {error ? (
          <Alert variant="danger" className="mb-0">
            {serverMessageOr(error, 'Could not load the accommodations')}
          </Alert>
        ) : isLoading || !students ? (
          <p className="mb-0">Loading…</p>
        ) : students.length === 0 ? (
          <p className="mb-0">No students have joined this class yet.</p>
        ) : (
          <>
            <p className="small mb-2">
              {withAny === 0
                ? 'No student has accommodations.'
                : `${withAny} of ${students.length} students have some.`}
            </p>
            <Table size="sm" responsive className="mb-0 align-middle" aria-labelledby="accommodations-heading">
              <thead>
                <tr>
                  <th scope="col">Student</th>
                  <th scope="col">Accommodations</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {students.map((s) => {
                  const list = accommodationList(s);
                  return (
                    <tr key={s.studentId}>
                      <th scope="row" className="fw-normal text-break">
                        {studentName(s)}
                      </th>
                      <td className={list.length ? '' : 'text-body-secondary'}>{list.join(', ') || 'None'}</td>
                      <td className="text-end">
                        <Button
                          variant="link"
                          size="sm"
                          onClick={() => setEditing(s)}
                          aria-label={`Edit accommodations of ${studentName(s)}`}
                        >
                          Edit
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
