// The CPU-heavy part of a roster preview (unzip, parse, validate, plan), as run by the preview
// worker (preview.worker.ts): in two steps around the one database read the plan needs (who holds
// the file's emails, what earlier imports did), and with its result already serialised, so that the
// service's event loop never parses, plans or stringifies a roster itself.
import type { FileMode, RosterFileName } from './oneroster.ts';
import { isZip, readSingleFile, readZipPackage, RosterPackageError } from './package.ts';
import { planRoster, type ExistingState, type RosterCounts } from './plan.ts';
import { validateRoster, type RowError, type ValidatedRoster } from './validate.ts';

/** The error rows shown with the preview; the rest are read page by page. */
export const PREVIEW_ERRORS = 100;
/** Error rows per insert (as one JSON array each). */
export const ERROR_CHUNK = 5_000;

export interface Upload {
  bytes: Uint8Array;
  /** A single CSV file: which one (absent for a zip package). */
  file?: RosterFileName;
  mode?: Exclude<FileMode, 'absent'>;
}

/** Reads and validates an upload; a package that cannot be read throws RosterPackageError. */
export async function readUpload(upload: Upload, uploadLimitBytes: number): Promise<ValidatedRoster> {
  if (upload.bytes.length === 0) throw new RosterPackageError('The upload is empty');
  let pkg;
  if (upload.file) pkg = await readSingleFile(upload.file, upload.mode ?? 'bulk', upload.bytes);
  else if (isZip(upload.bytes)) pkg = await readZipPackage(upload.bytes, uploadLimitBytes);
  else
    throw new RosterPackageError(
      'Send a OneRoster zip package (manifest.csv and the CSV files), or one CSV file with ?file=users (or roles, classes, courses, enrollments…)',
    );
  return validateRoster(pkg);
}

/** A plan ready to store: the plan and the error rows as JSON text, the rest small. */
export interface SerialisedPlan {
  mode: 'bulk' | 'delta';
  /** RosterPlan as JSON. */
  planJson: string;
  /** Planned users + classes: the steps of the apply. */
  changes: number;
  counts: RosterCounts;
  errorCount: number;
  /** The first PREVIEW_ERRORS error rows. */
  firstErrors: RowError[];
  /** Every error row, ERROR_CHUNK a chunk, each a JSON array of RowError with its `seq`. */
  errorChunks: string[];
}

export function planAndSerialise(validated: ValidatedRoster, state: ExistingState, callerId: string): SerialisedPlan {
  const { plan, counts, errors } = planRoster(validated, state, callerId);
  const errorChunks: string[] = [];
  for (let i = 0; i < errors.length; i += ERROR_CHUNK)
    errorChunks.push(JSON.stringify(errors.slice(i, i + ERROR_CHUNK).map((e, k) => ({ ...e, seq: i + k }))));
  return {
    mode: validated.mode,
    planJson: JSON.stringify(plan),
    changes: plan.users.length + plan.classes.length,
    counts,
    errorCount: errors.length,
    firstErrors: errors.slice(0, PREVIEW_ERRORS),
    errorChunks,
  };
}
