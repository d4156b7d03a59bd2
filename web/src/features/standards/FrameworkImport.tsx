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
import { formatNumber } from '../../i18n/format';
import { useTranslation } from '../../i18n/react';
import { useImportFrameworkMutation, type FrameworkImport as ImportResult } from './standardsApi';

/** The URL a district may give: https only (the server applies its egress rules too). The problem as a key of the bank namespace. */
export function urlProblem(text: string): string | null {
  const value = text.trim();
  if (value === '') return 'standards.import.urlEmpty';
  try {
    return new URL(value).protocol === 'https:' ? null : 'standards.import.urlHttps';
  } catch {
    return 'standards.import.urlWhole';
  }
}

/** The refusal as shown: the server's message and each field it names. */
function Refusal({ error }: { error: unknown }) {
  const { t } = useTranslation('bank');
  const fields = isApiError(error) ? Object.entries(error.fields ?? {}) : [];
  const message = isApiError(error) && error.status === 413 ? t('standards.import.tooLarge') : null;
  return (
    <Alert variant="danger" className="mt-3 mb-0" data-testid="import-error">
      <p className="mb-0">{message ?? serverMessageOr(error, t('standards.import.failed'))}</p>
      {fields.length > 0 && (
        <ul className="mb-0 mt-2">
          {fields.map(([field, text]) => (
            <li key={field}>
              <code>{field}</code>: {text}
            </li>
          ))}
        </ul>
      )}
      <p className="small mb-0 mt-2">{t('standards.import.nothing')}</p>
    </Alert>
  );
}

const COUNTS = ['added', 'updated', 'unchanged', 'withdrawn'] as const;

function Counts({ result }: { result: ImportResult }) {
  const { t } = useTranslation('bank');
  return (
    <Alert variant="success" className="mt-3 mb-0" data-testid="import-counts">
      <p className="fw-semibold mb-2">{t('standards.import.imported', { title: result.framework.title })}</p>
      <dl className="row mb-0">
        {COUNTS.map((key) => (
          <div key={key} className="col-6 col-sm-3">
            <dt className="small fw-normal">{t(`standards.import.count.${key}`)}</dt>
            <dd className="fs-5 fw-bold mb-0">{formatNumber(result.counts[key])}</dd>
          </div>
        ))}
      </dl>
    </Alert>
  );
}

export function FrameworkImport() {
  const { t } = useTranslation('bank');
  const toast = useToast();
  const [file, setFile] = useState<File | null>(null);
  const [url, setUrl] = useState('');
  const [urlError, setUrlError] = useState<string | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [importFramework, state] = useImportFrameworkMutation();

  const run = async (arg: { package: unknown } | { url: string }) => {
    const result = await importFramework(arg);
    if ('data' in result && result.data)
      toast({
        title: t('standards.import.toast'),
        description: t('standards.import.toastText', { title: result.data.framework.title }),
      });
  };

  const onFile = async (e: FormEvent) => {
    e.preventDefault();
    state.reset();
    if (!file) return setFileError(t('standards.import.fileMissing'));
    let parsed: unknown;
    try {
      parsed = JSON.parse(await file.text());
    } catch {
      return setFileError(t('standards.import.fileNotJson', { name: file.name }));
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
          {t('standards.import.title')}
        </Card.Title>
        <p className="small text-body-secondary">{t('standards.import.intro')}</p>
        <Row className="g-4">
          <Col md={6}>
            <Form noValidate onSubmit={(e) => void onFile(e)} aria-label={t('standards.import.fromFile')}>
              <Form.Group controlId="framework-file" className="mb-2">
                <Form.Label>{t('standards.import.file')}</Form.Label>
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
                {state.isLoading ? t('standards.import.importing') : t('standards.import.fileSubmit')}
              </Button>
            </Form>
          </Col>
          <Col md={6}>
            <Form noValidate onSubmit={(e) => void onUrl(e)} aria-label={t('standards.import.fromUrl')}>
              <Form.Group controlId="framework-url" className="mb-2">
                <Form.Label>{t('standards.import.url')}</Form.Label>
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
                    {t(urlError)}
                  </Form.Control.Feedback>
                )}
              </Form.Group>
              <Button type="submit" variant="outline-primary" disabled={state.isLoading}>
                {state.isLoading ? t('standards.import.importing') : t('standards.import.urlSubmit')}
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
