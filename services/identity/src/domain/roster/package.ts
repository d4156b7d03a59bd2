// An uploaded roster: a OneRoster zip package (manifest.csv and the files it lists) or a single
// CSV file named by the caller. Reading it never trusts the archive: sizes are bounded and only the
// known file names at the archive's root are read.
import { unzipSync } from 'fflate';
import { readCsv, CsvFormatError, type CsvRecord } from './csv.ts';
import {
  MANIFEST_FILE,
  REQUIRED_COLUMNS,
  ROSTER_FILES,
  type FileMode,
  type Manifest,
  type RosterFileName,
} from './oneroster.ts';

/** What went wrong with the package as a whole (answered 400): nothing of it is imported. */
export class RosterPackageError extends Error {
  constructor(
    message: string,
    readonly field = 'file',
  ) {
    super(message);
  }
}

export interface RosterFile {
  name: RosterFileName;
  mode: Exclude<FileMode, 'absent'>;
  header: string[];
  records: CsvRecord[];
}

export interface RosterPackage {
  manifest: Manifest;
  files: Partial<Record<RosterFileName, RosterFile>>;
}

/**
 * The inflated files of a package may be this many times the upload limit, and this large, at most
 * (a 50,000-student roster inflates to some 20 MB; all of it is held in memory while it is read).
 */
const MAX_INFLATE_FACTOR = 10;
export const MAX_INFLATED_BYTES = 256 * 1024 * 1024;
/**
 * A roster's CSV deflates some 5 to 10 times; a file that inflates more than this many times its
 * compressed size (past the first MiB) is a bomb of repeated rows or newlines, refused before it is
 * inflated.
 */
export const MAX_INFLATE_RATIO = 100;
const RATIO_FREE_BYTES = 1024 * 1024;

export function isZip(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;
}

/** Reads a zip package: its manifest decides which files are read and whether each is bulk or delta. */
export async function readZipPackage(bytes: Uint8Array, maxInflatedBytes: number): Promise<RosterPackage> {
  let entries: Record<string, Uint8Array>;
  let inflated = 0;
  const limit = Math.min(maxInflatedBytes * MAX_INFLATE_FACTOR, MAX_INFLATED_BYTES);
  try {
    entries = unzipSync(bytes, {
      filter: (file) => {
        const wanted = file.name === MANIFEST_FILE || ROSTER_FILES.some((f) => file.name === `${f}.csv`);
        if (!wanted) return false;
        inflated += file.originalSize;
        if (inflated > limit) throw new RosterPackageError(`The package inflates to more than ${limit} bytes`);
        if (file.originalSize > RATIO_FREE_BYTES && file.originalSize > file.size * MAX_INFLATE_RATIO)
          throw new RosterPackageError(
            `${file.name} inflates more than ${MAX_INFLATE_RATIO} times its compressed size; a roster does not (limit: inflate ratio ${MAX_INFLATE_RATIO})`,
          );
        return true;
      },
    });
  } catch (err) {
    if (err instanceof RosterPackageError) throw err;
    throw new RosterPackageError('The file is not a readable zip archive');
  }
  const manifestBytes = entries[MANIFEST_FILE];
  if (!manifestBytes) throw new RosterPackageError('The package has no manifest.csv at its root');
  const manifest = await readManifest(manifestBytes);
  const files: RosterPackage['files'] = {};
  for (const name of ROSTER_FILES) {
    const mode = manifest.files[name] ?? 'absent';
    const data = entries[`${name}.csv`];
    if (mode === 'absent') continue;
    if (!data)
      throw new RosterPackageError(`manifest.csv lists ${name}.csv as ${mode} but the package has no ${name}.csv`);
    files[name] = await readRosterFile(name, mode, data);
  }
  if (!files.users && !files.enrollments && !files.classes)
    throw new RosterPackageError('The package has none of users.csv, classes.csv, enrollments.csv');
  return { manifest, files };
}

/** Reads one CSV file sent alone (no manifest): `version` 1.2 unless users.csv carries a role column. */
export async function readSingleFile(
  name: RosterFileName,
  mode: Exclude<FileMode, 'absent'>,
  bytes: Uint8Array,
): Promise<RosterPackage> {
  const file = await readRosterFile(name, mode, bytes);
  const version = name === 'users' && file.header.includes('role') ? '1.1' : '1.2';
  return { manifest: { version, files: { [name]: mode } }, files: { [name]: file } };
}

export async function readManifest(bytes: Uint8Array): Promise<Manifest> {
  const { header, records } = await parseOrThrow('manifest', bytes);
  if (header[0] !== 'propertyName' || header[1] !== 'value')
    throw new RosterPackageError('manifest.csv must have the columns propertyName,value');
  const props = new Map(records.map((r) => [r.values.propertyName ?? '', r.values.value ?? '']));
  const version = props.get('oneroster.version');
  if (version !== '1.2' && version !== '1.1')
    throw new RosterPackageError(
      `manifest.csv: oneroster.version is ${version ? `"${version}"` : 'missing'}; 1.2 (or 1.1) is read`,
    );
  const files: Manifest['files'] = {};
  for (const name of ROSTER_FILES) {
    const mode = props.get(`file.${name}`) ?? 'absent';
    if (mode !== 'bulk' && mode !== 'delta' && mode !== 'absent')
      throw new RosterPackageError(`manifest.csv: file.${name} is "${mode}"; bulk, delta or absent is expected`);
    files[name] = mode;
  }
  return { version, files };
}

async function readRosterFile(
  name: RosterFileName,
  mode: Exclude<FileMode, 'absent'>,
  bytes: Uint8Array,
): Promise<RosterFile> {
  const { header, records } = await parseOrThrow(name, bytes);
  const missing = REQUIRED_COLUMNS[name].filter((column) => !header.includes(column));
  if (missing.length)
    throw new RosterPackageError(
      `${name}.csv lacks the required column${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`,
    );
  return { name, mode, header, records };
}

async function parseOrThrow(name: string, bytes: Uint8Array) {
  try {
    return await readCsv(bytes);
  } catch (err) {
    if (err instanceof CsvFormatError)
      throw new RosterPackageError(`${name}.csv line ${err.line}: not valid CSV (${err.message})`);
    throw err;
  }
}
