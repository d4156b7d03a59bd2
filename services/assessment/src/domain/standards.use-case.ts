// The standards catalogue (docs/adr/012-standards.md): a district admin imports its state's CASE
// frameworks (the package, or a CASE provider's URL fetched under the egress rules); the operator
// imports platform frameworks (no tenant) that every tenant sees; teachers and admins list the
// frameworks and search their items by code prefix or words.
import { fetchOutbound, ValidationError, zodToValidationError } from '@checkpoint/service-kit';
import { casePackageSchema, frameworkOf, type CasePackage } from './case-package.ts';
import type {
  FrameworkRecord,
  ImportCounts,
  StandardItemRecord,
  StandardsRepository,
} from '../data-access/standards.repository.ts';

export interface StandardsLimits {
  /** Largest package, as a body, a fetched document or a file. */
  packageLimitBytes: number;
  fetchTimeoutMs: number;
  /** Plain http and this machine's addresses for provider URLs (development and tests only). */
  allowLoopback: boolean;
}

/** The limits of the service's configuration (config.ts). */
export const standardsLimits = (config: {
  STANDARDS_PACKAGE_LIMIT_BYTES: number;
  STANDARDS_FETCH_TIMEOUT_MS: number;
  STANDARDS_FETCH_ALLOW_LOOPBACK: boolean;
}): StandardsLimits => ({
  packageLimitBytes: config.STANDARDS_PACKAGE_LIMIT_BYTES,
  fetchTimeoutMs: config.STANDARDS_FETCH_TIMEOUT_MS,
  allowLoopback: config.STANDARDS_FETCH_ALLOW_LOOPBACK,
});

export interface ImportOutcome {
  framework: FrameworkRecord;
  counts: ImportCounts;
  created: boolean;
}

/** Who imports: a district (its tenant and admin), or the platform (no tenant). */
export interface Importer {
  tenantId: string | null;
  userId: string | null;
}

export interface SearchInput {
  q: string;
  grade?: string | undefined;
  subject?: string | undefined;
  frameworkId?: string | undefined;
  limit: number;
}

/** A grade as CASE writes it: "6" is also "06". */
export function gradeVariants(grade: string): string[] {
  const g = grade.trim();
  if (/^\d$/.test(g)) return [g, `0${g}`];
  if (/^0\d$/.test(g)) return [g, g.slice(1)];
  return [g, g.toUpperCase()];
}

export function standardsUseCases(repo: StandardsRepository, limits: StandardsLimits) {
  /** A document's bytes read as a CASE package (400 naming the field or item when it is not one). */
  function packageFromBytes(bytes: Buffer, where: string): CasePackage {
    let json: unknown;
    try {
      json = JSON.parse(bytes.toString('utf8'));
    } catch {
      throw new ValidationError('The document is not JSON', { [where]: 'Not a CASE CFPackage (JSON)' });
    }
    const parsed = casePackageSchema.safeParse(json);
    if (!parsed.success) throw zodToValidationError(parsed.error, where);
    return parsed.data;
  }

  const uc = {
    importPackage(importer: Importer, pkg: CasePackage): Promise<ImportOutcome> {
      return repo.importFramework(importer.tenantId, importer.userId, frameworkOf(pkg));
    },

    /** Fetches a CFPackage from a CASE provider (egress rules of service-kit) and imports it. */
    async importFromUrl(importer: Importer, url: string, field = 'url'): Promise<ImportOutcome> {
      const bytes = await fetchOutbound(url, {
        field,
        allowLoopback: limits.allowLoopback,
        maxBytes: limits.packageLimitBytes,
        timeoutMs: limits.fetchTimeoutMs,
        accept: 'application/json',
      });
      return uc.importPackage(importer, packageFromBytes(bytes, field));
    },

    /** A package read from a file's bytes (the operator's CLI). */
    importFromBytes(importer: Importer, bytes: Buffer, field = 'file'): Promise<ImportOutcome> {
      if (bytes.length > limits.packageLimitBytes)
        throw new ValidationError(`The package is larger than ${limits.packageLimitBytes} bytes`, {
          [field]: `At most ${limits.packageLimitBytes} bytes (STANDARDS_PACKAGE_LIMIT_BYTES)`,
        });
      return uc.importPackage(importer, packageFromBytes(bytes, field));
    },

    listFrameworks(tenantId: string): Promise<FrameworkRecord[]> {
      return repo.listFrameworks(tenantId);
    },

    search(tenantId: string, s: SearchInput): Promise<StandardItemRecord[]> {
      return repo.search({
        tenantId,
        q: s.q,
        limit: s.limit,
        ...(s.grade ? { grades: gradeVariants(s.grade) } : {}),
        ...(s.subject ? { subject: s.subject } : {}),
        ...(s.frameworkId ? { frameworkId: s.frameworkId } : {}),
      });
    },
  };
  return uc;
}

export type StandardsUseCases = ReturnType<typeof standardsUseCases>;
