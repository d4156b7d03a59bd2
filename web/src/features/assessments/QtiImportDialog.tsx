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
import { useTranslation } from '../../i18n/react';

interface QtiImportDialogProps {
  show: boolean;
  onHide: () => void;
  /** The class the draft is made in; when absent the teacher chooses one of their classes. */
  classId?: string;
}

function ReportList({ title, entries, testId }: { title: string; entries: QtiReportEntry[]; testId: string }) {
  const { t } = useTranslation('assessments');
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
            <span className="fw-semibold">{e.item || t('qti.thePackage')}</span>
            {t('qti.in')}
            <code>{e.file}</code>: {e.reason}
          </li>
        ))}
      </ul>
    </section>
  );
}

function ImportResult({ result, onOpen }: { result: QtiImport; onOpen: () => void }) {
  const { t } = useTranslation('assessments');
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), [result]);
  const leftOut = result.report.filter((e) => !e.imported);
  const without = result.report.filter((e) => e.imported);
  return (
    <div data-testid="qti-import-result">
      <h3 className="h5" id="qti-import-result-title" tabIndex={-1} ref={heading}>
        {t('qti.imported', { count: result.imported })}
      </h3>
      <p className="mb-2">
        {t('qti.draftBefore')}
        <Link to={`/assessment-preview/${result.assessmentId}`} onClick={onOpen}>
          {result.title}
        </Link>
        {t('qti.draftAfter')}
      </p>
      {result.report.length === 0 ? (
        <p className="text-success mb-0" data-testid="qti-report-empty">
          {t('qti.everything')}
        </p>
      ) : (
        <>
          <ReportList title={t('qti.leftOut')} entries={leftOut} testId="qti-report-left-out" />
          <ReportList title={t('qti.without')} entries={without} testId="qti-report-imported-without" />
        </>
      )}
    </div>
  );
}

export function QtiImportDialog({ show, onHide, classId }: QtiImportDialogProps) {
  const { t } = useTranslation('assessments');
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
      setFileError(t('qti.chooseFile'));
      fileInput.current?.focus();
      return;
    }
    if (!target) {
      setError(t('qti.chooseClass'));
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
      setFileError(serverMessageOr(failure, t('qti.tooLarge')));
      fileInput.current?.focus();
    } else {
      setError(fields.classId ?? serverMessageOr(failure, t('qti.failed')));
    }
  };

  const another = () => {
    setResult(null);
    setFile(null);
    reset();
  };

  return (
    <Modal show={show} onHide={onHide} aria-labelledby="qti-import-title" size="lg">
      <Modal.Header closeButton closeLabel={t('close')}>
        <Modal.Title id="qti-import-title">{t('qti.title')}</Modal.Title>
      </Modal.Header>
      <Modal.Body>
        {!result && (
          <Form id="qti-import-form" noValidate onSubmit={(e) => void onSubmit(e)} aria-busy={busy}>
            <p className="small text-body-secondary">{t('qti.intro')}</p>
            {classId === undefined && classes.data && classes.data.length > 0 && (
              <ClassPicker
                id="qti-import-class"
                classes={classes.data}
                value={target}
                onChange={setChosenClass}
                className="mb-3"
              />
            )}
            {classId === undefined && classes.data?.length === 0 && <Alert variant="info">{t('qti.noClass')}</Alert>}
            <Form.Group controlId="qti-import-file">
              <Form.Label className="fw-semibold">{t('qti.package')}</Form.Label>
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
                <Form.Text id="qti-import-file-hint">{t('qti.packageHint')}</Form.Text>
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
              <Spinner animation="border" size="sm" aria-hidden="true" /> {t('qti.importing')}
            </div>
          )}
          {result && <ImportResult result={result} onOpen={onHide} />}
        </div>
      </Modal.Body>
      <Modal.Footer>
        {result ? (
          <>
            <Button variant="outline-secondary" onClick={another}>
              {t('qti.another')}
            </Button>
            <Button onClick={onHide}>{t('close')}</Button>
          </>
        ) : (
          <>
            <Button variant="outline-secondary" onClick={onHide} disabled={busy}>
              {t('cancel')}
            </Button>
            <Button type="submit" form="qti-import-form" disabled={busy || (classId === undefined && !target)}>
              {busy ? t('qti.importingButton') : t('qti.submit')}
            </Button>
          </>
        )}
      </Modal.Footer>
    </Modal>
  );
}
