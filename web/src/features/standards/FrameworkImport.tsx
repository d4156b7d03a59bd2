// Importing a CASE framework (POST /api/standards/frameworks): the package from a JSON file, or a
// CASE provider's CFPackage URL the server fetches. Shows the counts of the import (added, updated,
// unchanged, withdrawn) or the server's refusal with the items it names; nothing is half-imported.
import { useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Row from 'react-bootstrap/Row';
import { isApiError, serverMessageOr } from '../../api/apiError';
import { useToast } from '../../components/toast/useToast';
import { useImportFrameworkMutation, type FrameworkImport as ImportResult } from './standardsApi';

/** The URL a district may give: https only (the server applies its egress rules too). */
export function urlProblem(text: string): string | null {
  const value = text.trim();
  if (value === '') return 'Enter the address of a CFPackage';
  try {
    return new URL(value).protocol === 'https:' ? null : 'The address must start with https://';
  } catch {
    return 'Enter a whole address, e.g. https://provider.example/ims/case/v1p0/CFPackages/…';
  }
}

/** The refusal as shown: the server's message and each field it names. */
function Refusal({ error }: { error: unknown }) {
  const fields = isApiError(error) ? Object.entries(error.fields ?? {}) : [];
  const message = isApiError(error) && error.status === 413 ? 'The package is over the size limit.' : null;
  return (
    <Alert variant="danger" className="mt-3 mb-0" data-testid="import-error">
      <p className="mb-0">{message ?? serverMessageOr(error, 'The framework could not be imported')}</p>
      {fields.length > 0 && (
        <ul className="mb-0 mt-2">
          {fields.map(([field, text]) => (
            <li key={field}>
              <code>{field}</code>: {text}
            </li>
          ))}
        </ul>
      )}
      <p className="small mb-0 mt-2">Nothing was imported.</p>
    </Alert>
  );
}

const COUNT_LABELS = [
  ['added', 'Added'],
  ['updated', 'Updated'],
  ['unchanged', 'Unchanged'],
  ['withdrawn', 'Withdrawn'],
] as const;

function Counts({ result }: { result: ImportResult }) {
  return (
    <Alert variant="success" className="mt-3 mb-0" data-testid="import-counts">
      <p className="fw-semibold mb-2">Imported {result.framework.title}</p>
      <dl className="row mb-0">
        {COUNT_LABELS.map(([key, label]) => (
          <div key={key} className="col-6 col-sm-3">
            <dt className="small fw-normal">{label}</dt>
            <dd className="fs-5 fw-bold mb-0">{result.counts[key]}</dd>
          </div>
        ))}
      </dl>
    </Alert>
  );
}

export function FrameworkImport() {
  const toast = useToast();
  const [file, setFile] = useState<File | null>(null);
  const [url, setUrl] = useState('');
  const [urlError, setUrlError] = useState<string | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [importFramework, state] = useImportFrameworkMutation();

  const run = async (arg: { package: unknown } | { url: string }) => {
    const result = await importFramework(arg);
    if ('data' in result && result.data)
      toast({ title: 'Framework imported', description: `${result.data.framework.title} is ready to align to.` });
  };

  const onFile = async (e: FormEvent) => {
    e.preventDefault();
    state.reset();
    if (!file) return setFileError('Choose a CASE package (.json)');
    let parsed: unknown;
    try {
      parsed = JSON.parse(await file.text());
    } catch {
      return setFileError(`${file.name} is not JSON: choose a CASE CFPackage JSON file`);
    }
    setFileError(null);
    await run({ package: parsed });
  };

  const onUrl = async (e: FormEvent) => {
    e.preventDefault();
    state.reset();
    const problem = urlProblem(url);
    setUrlError(problem);
    if (!problem) await run({ url: url.trim() });
  };

  return (
    <Card className="shadow-sm mb-4" as="section" aria-labelledby="framework-import-title">
      <Card.Body>
        <Card.Title as="h2" className="h5" id="framework-import-title">
          Import a framework
        </Card.Title>
        <p className="small text-body-secondary">
          Your state publishes its standards as a CASE package (1EdTech CASE 1.0 or 1.1). Importing the same package
          again updates it: items it no longer holds are withdrawn, never deleted.
        </p>
        <Row className="g-4">
          <Col md={6}>
            <Form noValidate onSubmit={(e) => void onFile(e)} aria-label="Import from a file">
              <Form.Group controlId="framework-file" className="mb-2">
                <Form.Label>CASE package file</Form.Label>
                <Form.Control
                  type="file"
                  accept=".json,application/json"
                  isInvalid={Boolean(fileError)}
                  aria-describedby={fileError ? 'framework-file-error' : undefined}
                  onChange={(e) => {
                    setFile((e.target as HTMLInputElement).files?.[0] ?? null);
                    setFileError(null);
                  }}
                />
                {fileError && (
                  <Form.Control.Feedback type="invalid" id="framework-file-error">
                    {fileError}
                  </Form.Control.Feedback>
                )}
              </Form.Group>
              <Button type="submit" disabled={state.isLoading}>
                {state.isLoading ? 'Importing…' : 'Import file'}
              </Button>
            </Form>
          </Col>
          <Col md={6}>
            <Form noValidate onSubmit={(e) => void onUrl(e)} aria-label="Import from a CASE provider">
              <Form.Group controlId="framework-url" className="mb-2">
                <Form.Label>CASE provider URL</Form.Label>
                <Form.Control
                  type="url"
                  inputMode="url"
                  placeholder="https://…/ims/case/v1p0/CFPackages/…"
                  value={url}
                  isInvalid={Boolean(urlError)}
                  aria-describedby={urlError ? 'framework-url-error' : undefined}
                  onChange={(e) => {
                    setUrl(e.target.value);
                    setUrlError(null);
                  }}
                />
                {urlError && (
                  <Form.Control.Feedback type="invalid" id="framework-url-error">
                    {urlError}
                  </Form.Control.Feedback>
                )}
              </Form.Group>
              <Button type="submit" variant="outline-primary" disabled={state.isLoading}>
                {state.isLoading ? 'Importing…' : 'Import from URL'}
              </Button>
            </Form>
          </Col>
        </Row>
        <div aria-live="polite">
          {state.isSuccess && state.data && <Counts result={state.data} />}
          {state.isError && <Refusal error={state.error} />}
        </div>
      </Card.Body>
    </Card>
  );
}
