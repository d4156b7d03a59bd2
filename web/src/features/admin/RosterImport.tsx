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

/** How often the progress is read while an import runs. */
export const POLL_MS = 1000;
const FILE_ORDER = ['users', 'roles', 'classes', 'enrollments', 'courses', 'orgs', 'academicSessions'];

export function RosterImport() {
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
      <h1 className="h2 mb-1">Roster</h1>
      <p className="text-body-secondary mb-4">
        Import your district’s students, teachers and classes from a OneRoster 1.2 CSV package
      </p>
      <Card className="shadow-sm mb-4">
        <Card.Body>
          <Form onSubmit={onPreview}>
            <Form.Group controlId="roster-file" className="mb-3">
              <Form.Label>OneRoster package</Form.Label>
              <Form.Control
                type="file"
                accept=".zip,.csv,application/zip,text/csv"
                onChange={(e) => {
                  const chosen = (e.target as HTMLInputElement).files?.[0] ?? null;
                  setFile(chosen);
                  setCsvFile(chosen ? (rosterFileOf(chosen.name) ?? '') : '');
                }}
              />
              <Form.Text>
                A zip with manifest.csv, users.csv, roles.csv, classes.csv, enrollments.csv… or a single CSV file.
                Passwords in the file are not imported: each new account gets a welcome e-mail with a link to choose a
                password (or, when the district signs in with its own provider, how to sign in with it).
              </Form.Text>
            </Form.Group>
            {isCsv && (
              <Form.Group controlId="roster-csv-file" className="mb-3">
                <Form.Label>Which OneRoster file is it?</Form.Label>
                <Form.Select value={csvFile} onChange={(e) => setCsvFile(e.target.value as RosterFileName | '')}>
                  <option value="">Choose…</option>
                  {ROSTER_FILES.map((f) => (
                    <option key={f} value={f}>
                      {f}.csv
                    </option>
                  ))}
                </Form.Select>
              </Form.Group>
            )}
            <Button type="submit" disabled={!file || (isCsv && !csvFile) || uploadState.isLoading}>
              {uploadState.isLoading ? 'Checking…' : 'Preview'}
            </Button>
          </Form>
          {uploadState.isError && (
            <Alert variant="danger" className="mt-3 mb-0">
              {serverMessageOr(uploadState.error, 'The roster could not be read')}
            </Alert>
          )}
        </Card.Body>
      </Card>

      {view && (
        <Card className="shadow-sm" data-testid="roster-preview">
          <Card.Body>
            <Card.Title as="h2" className="h5">
              {view.status === 'previewed' ? 'Preview' : 'Import'} ({view.mode === 'delta' ? 'changes' : 'full roster'})
            </Card.Title>
            <CountsTable counts={view.counts} />
            {view.status === 'previewed' && confirming && (
              <Alert variant="warning" data-testid="roster-confirm" aria-live="polite">
                <p className="fw-semibold mb-2">Apply this roster to your district?</p>
                <ul className="mb-2">
                  {consequences(view).map((line) => (
                    <li key={line}>{line}</li>
                  ))}
                </ul>
                <div className="d-flex gap-2">
                  <Button variant="primary" onClick={onApply} disabled={applyState.isLoading}>
                    Confirm and apply
                  </Button>
                  <Button variant="outline-secondary" onClick={() => setConfirming(false)}>
                    Cancel
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
                  Apply…
                </Button>
                <span className="small text-body-secondary">
                  {view.progress.total === 0
                    ? 'Nothing to change: the roster is already up to date.'
                    : `${view.progress.total} change${view.progress.total === 1 ? '' : 's'} to apply; the rows with errors are skipped.`}
                </span>
              </div>
            )}
            {applyState.isError && (
              <Alert variant="danger">{serverMessageOr(applyState.error, 'The import could not be started')}</Alert>
            )}
            {(view.status === 'running' || (applied && !finished)) && (
              <div className="mb-3">
                <NamedProgressBar
                  percent={view.progress.total ? (100 * view.progress.done) / view.progress.total : 0}
                  text={`${view.progress.done} / ${view.progress.total}`}
                  name="Import progress"
                  animated
                />
              </div>
            )}
            {view.status === 'done' && (
              <Alert variant="success" data-testid="roster-summary">
                Import complete: {summary(view)}
                {view.errorCount > 0 && ` ${view.errorCount} row${view.errorCount === 1 ? ' was' : 's were'} skipped.`}
              </Alert>
            )}
            {view.status === 'failed' && <Alert variant="danger">{view.failure ?? 'The import failed'}</Alert>}
            <ErrorsTable view={view} />
          </Card.Body>
        </Card>
      )}
    </>
  );
}

function summary(view: RosterImportView): string {
  const u = view.counts.users;
  const c = view.counts.classes;
  const e = view.counts.enrollments;
  const parts: string[] = [];
  if (u) parts.push(`${u.new} new and ${u.updated} updated users, ${u.deleted} removed`);
  if (c) parts.push(`${c.new} new and ${c.updated} updated classes, ${c.deleted} archived`);
  if (e) parts.push(`${e.new} enrollments added, ${e.deleted + e.dropped} removed`);
  return parts.length ? `${parts.join('; ')}.` : 'nothing changed.';
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** What applying the previewed import will do, in sentences with its counts. */
export function consequences(view: RosterImportView): string[] {
  const u = view.counts.users;
  const c = view.counts.classes;
  const e = view.counts.enrollments;
  const lines: string[] = [];
  if (u && (u.new || u.updated || u.deleted))
    lines.push(
      `Users: ${plural(u.new, 'account', 'accounts')} created, ${u.updated} updated, ${u.deleted} removed (they can no longer sign in).${u.new ? ' Each new account with an e-mail address gets a welcome e-mail saying how to sign in.' : ''}`,
    );
  if (c && (c.new || c.updated || c.deleted))
    lines.push(`Classes: ${c.new} created, ${c.updated} updated, ${c.deleted} archived.`);
  if (e && (e.new || e.deleted || e.dropped))
    lines.push(
      `Enrollments: ${e.new} added, ${e.deleted + e.dropped} ended${e.dropped ? ` (${e.dropped} because the file no longer lists them)` : ''}.`,
    );
  const unchanged = Object.values(view.counts).reduce((n, f) => n + (f?.unchanged ?? 0), 0);
  if (unchanged) lines.push(`${plural(unchanged, 'row is', 'rows are')} already up to date.`);
  if (view.errorCount) lines.push(`${plural(view.errorCount, 'row has', 'rows have')} errors and will be skipped.`);
  return lines;
}

function CountsTable({ counts }: { counts: RosterImportView['counts'] }) {
  const files = Object.keys(counts).sort((a, b) => FILE_ORDER.indexOf(a) - FILE_ORDER.indexOf(b));
  if (!files.length) return null;
  return (
    <Table size="sm" responsive className="mb-3" aria-label="Rows per file">
      <thead>
        <tr>
          <th scope="col">File</th>
          <th scope="col">Rows</th>
          <th scope="col">New</th>
          <th scope="col">Updated</th>
          <th scope="col">Unchanged</th>
          <th scope="col">Deleted</th>
          <th scope="col">Read</th>
          <th scope="col">Errors</th>
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

function ErrorsTable({ view }: { view: RosterImportView }) {
  if (view.errorCount === 0) return null;
  return (
    <>
      <div className="d-flex justify-content-between align-items-center mb-2">
        <h3 className="h6 mb-0">
          {view.errorCount} row{view.errorCount === 1 ? '' : 's'} with errors (skipped)
          {view.errorCount > view.errors.length && `; the first ${view.errors.length} shown`}
        </h3>
        <Button as="a" href={`${rosterImportPath(view.id)}/errors.csv`} size="sm" variant="outline-secondary" download>
          Download errors CSV
        </Button>
      </div>
      <Table size="sm" striped responsive aria-label="Rows with errors">
        <thead>
          <tr>
            <th scope="col">File</th>
            <th scope="col">Line</th>
            <th scope="col">sourcedId</th>
            <th scope="col">Field</th>
            <th scope="col">Problem</th>
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
