// Roster import (OneRoster 1.2 CSV) for a district's admin: choose the package (a zip, or one CSV)
// → preview (counts per file, the rows that will be skipped with their line numbers, a CSV of all
// of them) → Apply → progress (polled) → summary. Nothing changes before Apply.
import { useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import Table from 'react-bootstrap/Table';
import { serverMessageOr } from '../../api/apiError';
import {
  ROSTER_FILES,
  rosterFileOf,
  rosterImportPath,
  useApplyRosterImportMutation,
  useGetRosterImportQuery,
  useUploadRosterMutation,
  type RosterFileName,
  type RosterImport as RosterImportView,
} from './rosterApi';
import { NamedProgressBar } from '../../components/NamedProgressBar';
import type { TFunction } from '../../i18n/i18n';
import { useTranslation } from '../../i18n/react';

/** How often the progress is read while an import runs. */
export const POLL_MS = 1000;
const FILE_ORDER = ['users', 'roles', 'classes', 'enrollments', 'courses', 'orgs', 'academicSessions'];

export function RosterImport() {
  const { t } = useTranslation('admin');
  const [file, setFile] = useState<File | null>(null);
  const [csvFile, setCsvFile] = useState<RosterFileName | ''>('');
  const [importId, setImportId] = useState<string | null>(null);
  const [upload, uploadState] = useUploadRosterMutation();
  const [apply, applyState] = useApplyRosterImportMutation();
  const [applied, setApplied] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const current = useGetRosterImportQuery(
    { id: importId ?? '' },
    {
      skip: !importId,
      pollingInterval: applied ? POLL_MS : 0,
      skipPollingIfUnfocused: false,
    },
  );
  const view: RosterImportView | undefined = current.data ?? uploadState.data;
  const finished = view?.status === 'done' || view?.status === 'failed';
  const isCsv = file ? /\.csv$/i.test(file.name) : false;

  async function onPreview(e: FormEvent) {
    e.preventDefault();
    if (!file) return;
    setApplied(false);
    setConfirming(false);
    setImportId(null);
    const result = await upload({ file, ...(isCsv && csvFile ? { csvFile } : {}) });
    if ('data' in result && result.data) setImportId(result.data.id);
  }

  async function onApply() {
    if (!importId) return;
    setConfirming(false);
    const result = await apply(importId);
    if ('data' in result) setApplied(true);
  }

  return (
    <>
      <h1 className="h2 mb-1">{t('roster.title')}</h1>
      <p className="text-body-secondary mb-4">{t('roster.intro')}</p>
      <Card className="shadow-sm mb-4">
        <Card.Body>
          <Form onSubmit={onPreview}>
            <Form.Group controlId="roster-file" className="mb-3">
              <Form.Label>{t('roster.package')}</Form.Label>
              <Form.Control
                type="file"
                accept=".zip,.csv,application/zip,text/csv"
                onChange={(e) => {
                  const chosen = (e.target as HTMLInputElement).files?.[0] ?? null;
                  setFile(chosen);
                  setCsvFile(chosen ? (rosterFileOf(chosen.name) ?? '') : '');
                }}
              />
              <Form.Text>{t('roster.packageHelp')}</Form.Text>
            </Form.Group>
            {isCsv && (
              <Form.Group controlId="roster-csv-file" className="mb-3">
                <Form.Label>{t('roster.whichFile')}</Form.Label>
                <Form.Select value={csvFile} onChange={(e) => setCsvFile(e.target.value as RosterFileName | '')}>
                  <option value="">{t('roster.choose')}</option>
                  {ROSTER_FILES.map((f) => (
                    <option key={f} value={f}>
                      {f}.csv
                    </option>
                  ))}
                </Form.Select>
              </Form.Group>
            )}
            <Button type="submit" disabled={!file || (isCsv && !csvFile) || uploadState.isLoading}>
              {uploadState.isLoading ? t('roster.checking') : t('roster.preview')}
            </Button>
          </Form>
          {uploadState.isError && (
            <Alert variant="danger" className="mt-3 mb-0">
              {serverMessageOr(uploadState.error, t('roster.readFailed'))}
            </Alert>
          )}
        </Card.Body>
      </Card>

      {view && (
        <Card className="shadow-sm" data-testid="roster-preview">
          <Card.Body>
            <Card.Title as="h2" className="h5">
              {t(view.status === 'previewed' ? 'roster.previewTitle' : 'roster.importTitle', {
                mode: t(view.mode === 'delta' ? 'roster.mode.delta' : 'roster.mode.full'),
              })}
            </Card.Title>
            <CountsTable counts={view.counts} t={t} />
            {view.status === 'previewed' && confirming && (
              <Alert variant="warning" data-testid="roster-confirm" aria-live="polite">
                <p className="fw-semibold mb-2">{t('roster.confirm.ask')}</p>
                <ul className="mb-2">
                  {consequences(view, t).map((line) => (
                    <li key={line}>{line}</li>
                  ))}
                </ul>
                <div className="d-flex gap-2">
                  <Button variant="primary" onClick={onApply} disabled={applyState.isLoading}>
                    {t('roster.confirm.apply')}
                  </Button>
                  <Button variant="outline-secondary" onClick={() => setConfirming(false)}>
                    {t('common:cancel')}
                  </Button>
                </div>
              </Alert>
            )}
            {view.status === 'previewed' && !confirming && (
              <div className="d-flex gap-2 align-items-center mb-3">
                <Button
                  variant="primary"
                  onClick={() => setConfirming(true)}
                  disabled={applyState.isLoading || applied || view.progress.total === 0}
                >
                  {t('roster.apply')}
                </Button>
                <span className="small text-body-secondary">
                  {view.progress.total === 0
                    ? t('roster.nothingToChange')
                    : t('roster.toApply', { count: view.progress.total })}
                </span>
              </div>
            )}
            {applyState.isError && (
              <Alert variant="danger">{serverMessageOr(applyState.error, t('roster.applyFailed'))}</Alert>
            )}
            {(view.status === 'running' || (applied && !finished)) && (
              <div className="mb-3">
                <NamedProgressBar
                  percent={view.progress.total ? (100 * view.progress.done) / view.progress.total : 0}
                  text={`${view.progress.done} / ${view.progress.total}`}
                  name={t('roster.progress')}
                  animated
                />
              </div>
            )}
            {view.status === 'done' && (
              <Alert variant="success" data-testid="roster-summary">
                {t('roster.complete', { summary: summary(view, t) })}
                {view.errorCount > 0 && ` ${t('roster.skipped', { count: view.errorCount })}`}
              </Alert>
            )}
            {view.status === 'failed' && <Alert variant="danger">{view.failure ?? t('roster.failed')}</Alert>}
            <ErrorsTable view={view} t={t} />
          </Card.Body>
        </Card>
      )}
    </>
  );
}

/** What the applied import changed, in a sentence with its counts. */
function summary(view: RosterImportView, t: TFunction): string {
  const u = view.counts.users;
  const c = view.counts.classes;
  const e = view.counts.enrollments;
  const parts: string[] = [];
  if (u) parts.push(t('roster.summary.users', { new: u.new, updated: u.updated, deleted: u.deleted }));
  if (c) parts.push(t('roster.summary.classes', { new: c.new, updated: c.updated, deleted: c.deleted }));
  if (e) parts.push(t('roster.summary.enrollments', { added: e.new, removed: e.deleted + e.dropped }));
  return parts.length ? `${parts.join('; ')}.` : t('roster.summary.nothing');
}

/** What applying the previewed import will do, in sentences with its counts. */
export function consequences(view: RosterImportView, t: TFunction): string[] {
  const u = view.counts.users;
  const c = view.counts.classes;
  const e = view.counts.enrollments;
  const lines: string[] = [];
  if (u && (u.new || u.updated || u.deleted))
    lines.push(
      t('roster.confirm.users', {
        accounts: t('roster.confirm.accounts', { count: u.new }),
        updated: u.updated,
        deleted: u.deleted,
      }) + (u.new ? ` ${t('roster.confirm.welcome')}` : ''),
    );
  if (c && (c.new || c.updated || c.deleted))
    lines.push(t('roster.confirm.classes', { new: c.new, updated: c.updated, deleted: c.deleted }));
  if (e && (e.new || e.deleted || e.dropped))
    lines.push(
      t(e.dropped ? 'roster.confirm.enrollmentsDropped' : 'roster.confirm.enrollments', {
        added: e.new,
        ended: e.deleted + e.dropped,
        dropped: e.dropped,
      }),
    );
  const unchanged = Object.values(view.counts).reduce((n, f) => n + (f?.unchanged ?? 0), 0);
  if (unchanged) lines.push(t('roster.confirm.unchanged', { count: unchanged }));
  if (view.errorCount) lines.push(t('roster.confirm.errors', { count: view.errorCount }));
  return lines;
}

function CountsTable({ counts, t }: { counts: RosterImportView['counts']; t: TFunction }) {
  const files = Object.keys(counts).sort((a, b) => FILE_ORDER.indexOf(a) - FILE_ORDER.indexOf(b));
  if (!files.length) return null;
  return (
    <Table size="sm" responsive className="mb-3" aria-label={t('roster.counts.label')}>
      <thead>
        <tr>
          <th scope="col">{t('roster.col.file')}</th>
          <th scope="col">{t('roster.counts.rows')}</th>
          <th scope="col">{t('roster.counts.new')}</th>
          <th scope="col">{t('roster.counts.updated')}</th>
          <th scope="col">{t('roster.counts.unchanged')}</th>
          <th scope="col">{t('roster.counts.deleted')}</th>
          <th scope="col">{t('roster.counts.read')}</th>
          <th scope="col">{t('roster.counts.errors')}</th>
        </tr>
      </thead>
      <tbody>
        {files.map((f) => {
          const c = counts[f]!;
          return (
            <tr key={f}>
              <th scope="row">{f}.csv</th>
              <td>{c.rows}</td>
              <td>{c.new}</td>
              <td>{c.updated}</td>
              <td>{c.unchanged}</td>
              <td>{c.deleted}</td>
              <td>{c.read}</td>
              <td className={c.invalid ? 'text-danger fw-semibold' : undefined}>{c.invalid}</td>
            </tr>
          );
        })}
      </tbody>
    </Table>
  );
}

function ErrorsTable({ view, t }: { view: RosterImportView; t: TFunction }) {
  if (view.errorCount === 0) return null;
  return (
    <>
      <div className="d-flex justify-content-between align-items-center mb-2">
        <h3 className="h6 mb-0">
          {t('roster.errors.title', { count: view.errorCount })}
          {view.errorCount > view.errors.length && t('roster.errors.firstShown', { shown: view.errors.length })}
        </h3>
        <Button as="a" href={`${rosterImportPath(view.id)}/errors.csv`} size="sm" variant="outline-secondary" download>
          {t('roster.errors.download')}
        </Button>
      </div>
      <Table size="sm" striped responsive aria-label={t('roster.errors.label')}>
        <thead>
          <tr>
            <th scope="col">{t('roster.col.file')}</th>
            <th scope="col">{t('roster.errors.line')}</th>
            <th scope="col">sourcedId</th>
            <th scope="col">{t('roster.errors.field')}</th>
            <th scope="col">{t('roster.errors.problem')}</th>
          </tr>
        </thead>
        <tbody>
          {view.errors.map((e, i) => (
            <tr key={`${e.file}:${e.line}:${i}`}>
              <td>{e.file}</td>
              <td>{e.line || '—'}</td>
              <td>{e.sourcedId ?? ''}</td>
              <td>{e.field ?? ''}</td>
              <td>{e.message}</td>
            </tr>
          ))}
        </tbody>
      </Table>
    </>
  );
}
