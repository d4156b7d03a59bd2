// "Import QTI package…": a QTI 3.0 (or 2.1/2.2) content package, or one item's XML, becomes a new
// draft assessment of one of the teacher's classes (POST /api/qti/imports?classId=). The result
// says how many questions came in, links the draft, and lists what did not come in as it was:
// items left out, and items imported without something, each with its file and the reason.
// A package the server refuses (400) changes nothing; its message shows on the file field.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import Spinner from 'react-bootstrap/Spinner';
import { isApiError, serverMessageOr } from '../../api/apiError';
import { ClassPicker, useGetClassesQuery } from '../classes';
import { QTI_ACCEPT, useImportQtiMutation, type QtiImport, type QtiReportEntry } from './qtiApi';

interface QtiImportDialogProps {
  show: boolean;
  onHide: () => void;
  /** The class the draft is made in; when absent the teacher chooses one of their classes. */
  classId?: string;
}

const questions = (n: number) => `${n} ${n === 1 ? 'question' : 'questions'}`;

function ReportList({ title, entries, testId }: { title: string; entries: QtiReportEntry[]; testId: string }) {
  if (entries.length === 0) return null;
  const headingId = `${testId}-heading`;
  return (
    <section aria-labelledby={headingId} className="mt-3" data-testid={testId}>
      <h4 className="h6 mb-2" id={headingId}>
        {title} ({entries.length})
      </h4>
      <ul className="small mb-0 ps-3">
        {entries.map((e, i) => (
          <li key={`${e.file}-${e.item}-${i}`} className="mb-1">
            <span className="fw-semibold">{e.item || 'The package'}</span> in <code>{e.file}</code>: {e.reason}
          </li>
        ))}
      </ul>
    </section>
  );
}

function ImportResult({ result, onOpen }: { result: QtiImport; onOpen: () => void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), [result]);
  const leftOut = result.report.filter((e) => !e.imported);
  const without = result.report.filter((e) => e.imported);
  return (
    <div data-testid="qti-import-result">
      <h3 className="h5" id="qti-import-result-title" tabIndex={-1} ref={heading}>
        {questions(result.imported)} imported
      </h3>
      <p className="mb-2">
        A new draft,{' '}
        <Link to={`/assessment-preview/${result.assessmentId}`} onClick={onOpen}>
          {result.title}
        </Link>
        , holds them; review it before assigning.
      </p>
      {result.report.length === 0 ? (
        <p className="text-success mb-0" data-testid="qti-report-empty">
          Everything in the package came in as it was.
        </p>
      ) : (
        <>
          <ReportList title="Left out" entries={leftOut} testId="qti-report-left-out" />
          <ReportList title="Imported without something" entries={without} testId="qti-report-imported-without" />
        </>
      )}
    </div>
  );
}

export function QtiImportDialog({ show, onHide, classId }: QtiImportDialogProps) {
  const classes = useGetClassesQuery(undefined, { skip: !show || classId !== undefined });
  const [importQti, state] = useImportQtiMutation();
  const [file, setFile] = useState<File | null>(null);
  const [chosenClass, setChosenClass] = useState('');
  const [fileError, setFileError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<QtiImport | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const target = classId ?? (chosenClass || classes.data?.[0]?.id || '');
  const busy = state.isLoading;

  // Each opening starts afresh (the dialog stays mounted once opened: app/lazyModal).
  const { reset } = state;
  useEffect(() => {
    if (!show) return;
    setFile(null);
    setFileError(null);
    setError(null);
    setResult(null);
    reset();
  }, [show, reset]);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    if (!file) {
      setFileError('Choose a QTI package (.zip) or one item (.xml)');
      fileInput.current?.focus();
      return;
    }
    if (!target) {
      setError('Choose the class the assessment is made in');
      return;
    }
    setFileError(null);
    const answer = await importQti({ file, classId: target });
    if ('data' in answer && answer.data) {
      setResult(answer.data);
      return;
    }
    const failure = 'error' in answer ? answer.error : undefined;
    const fields = isApiError(failure) ? (failure.fields ?? {}) : {};
    if (fields.package) {
      setFileError(fields.package);
      fileInput.current?.focus();
    } else if (isApiError(failure) && failure.status === 413) {
      setFileError(serverMessageOr(failure, 'The package is larger than the import takes'));
      fileInput.current?.focus();
    } else {
      setError(fields.classId ?? serverMessageOr(failure, 'The package could not be imported'));
    }
  };

  const another = () => {
    setResult(null);
    setFile(null);
    reset();
  };

  return (
    <Modal show={show} onHide={onHide} aria-labelledby="qti-import-title" size="lg">
      <Modal.Header closeButton closeLabel="Close">
        <Modal.Title id="qti-import-title">Import QTI package</Modal.Title>
      </Modal.Header>
      <Modal.Body>
        {!result && (
          <Form id="qti-import-form" noValidate onSubmit={(e) => void onSubmit(e)} aria-busy={busy}>
            <p className="small text-body-secondary">
              A QTI 3.0 content package (or QTI 2.1/2.2) becomes a new draft assessment. Choice, true/false and
              text-entry items come in with their answers, points and standards; anything else is listed with the
              reason, and nothing is stored from a package that cannot be read.
            </p>
            {classId === undefined && classes.data && classes.data.length > 0 && (
              <ClassPicker
                id="qti-import-class"
                classes={classes.data}
                value={target}
                onChange={setChosenClass}
                className="mb-3"
              />
            )}
            {classId === undefined && classes.data?.length === 0 && (
              <Alert variant="info">Create a class first: the imported assessment belongs to one.</Alert>
            )}
            <Form.Group controlId="qti-import-file">
              <Form.Label className="fw-semibold">QTI package</Form.Label>
              <Form.Control
                ref={fileInput}
                type="file"
                accept={QTI_ACCEPT}
                disabled={busy}
                isInvalid={Boolean(fileError)}
                aria-invalid={fileError ? true : undefined}
                aria-describedby={fileError ? 'qti-import-file-error' : 'qti-import-file-hint'}
                onChange={(e) => {
                  setFile((e.target as HTMLInputElement).files?.[0] ?? null);
                  setFileError(null);
                }}
              />
              {fileError ? (
                <Form.Control.Feedback type="invalid" id="qti-import-file-error">
                  {fileError}
                </Form.Control.Feedback>
              ) : (
                <Form.Text id="qti-import-file-hint">
                  A .zip package with imsmanifest.xml, or one item as .xml.
                </Form.Text>
              )}
            </Form.Group>
            {error && (
              <Alert variant="danger" className="mt-3 mb-0" role="alert">
                {error}
              </Alert>
            )}
          </Form>
        )}
        <div aria-live="polite">
          {busy && (
            <div className="mt-3 d-flex align-items-center gap-2" role="status">
              <Spinner animation="border" size="sm" aria-hidden="true" /> Importing the package…
            </div>
          )}
          {result && <ImportResult result={result} onOpen={onHide} />}
        </div>
      </Modal.Body>
      <Modal.Footer>
        {result ? (
          <>
            <Button variant="outline-secondary" onClick={another}>
              Import another
            </Button>
            <Button onClick={onHide}>Close</Button>
          </>
        ) : (
          <>
            <Button variant="outline-secondary" onClick={onHide} disabled={busy}>
              Cancel
            </Button>
            <Button type="submit" form="qti-import-form" disabled={busy || (classId === undefined && !target)}>
              {busy ? 'Importing…' : 'Import'}
            </Button>
          </>
        )}
      </Modal.Footer>
    </Modal>
  );
}
