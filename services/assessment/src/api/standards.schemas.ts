// Request and response schemas of the standards catalogue (/api/standards/…): a CASE package or a
// provider URL to import, the frameworks, the items a search finds.
import { z } from 'zod';
import { casePackageShape, checkPackageLinks, type CasePackage } from '../domain/case-package.ts';

export const SEARCH_LIMIT = { default: 20, max: 50 };

/**
 * POST /api/standards/frameworks: a CASE 1.0/1.1 CFPackage, or `{ url }` of one at a CASE provider
 * (`https://<provider>/ims/case/v1p0/CFPackages/<id>`), fetched by the service.
 */
export const importFrameworkBody = z
  .object({
    url: z
      .string({ error: 'url must be text' })
      .max(2000, 'url must be at most 2000 characters')
      .trim()
      .min(1, 'url is required')
      .optional()
      .describe('A CASE provider’s CFPackage URL (https), instead of the package itself'),
    CFDocument: casePackageShape.CFDocument.optional(),
    CFItems: casePackageShape.CFItems.optional(),
    CFAssociations: casePackageShape.CFAssociations,
    CFDefinitions: casePackageShape.CFDefinitions,
  })
  .superRefine((b, ctx) => {
    if (b.url !== undefined) {
      if (b.CFDocument || b.CFItems)
        ctx.addIssue({ code: 'custom', path: ['url'], message: 'Send either a package or its url, not both' });
      return;
    }
    if (!b.CFDocument) ctx.addIssue({ code: 'custom', path: ['CFDocument'], message: 'CFDocument is required' });
    if (!b.CFItems) ctx.addIssue({ code: 'custom', path: ['CFItems'], message: 'CFItems is required' });
    if (b.CFDocument && b.CFItems)
      checkPackageLinks({ CFDocument: b.CFDocument, CFItems: b.CFItems, CFAssociations: b.CFAssociations }, ctx);
  })
  .transform((b): { url: string } | { package: CasePackage } =>
    b.url !== undefined
      ? { url: b.url }
      : {
          package: {
            CFDocument: b.CFDocument!,
            CFItems: b.CFItems!,
            ...(b.CFAssociations ? { CFAssociations: b.CFAssociations } : {}),
          },
        },
  );

export const frameworkSchema = z
  .object({
    id: z.uuid(),
    title: z.string(),
    documentIdentifier: z.string().describe('CFDocument.identifier'),
    creator: z.string(),
    version: z.string(),
    uri: z.string(),
    subjects: z.array(z.string()),
    itemCount: z.number().int().describe('Items not withdrawn'),
    scope: z.enum(['district', 'platform']).describe('The district’s own, or imported by the operator for everyone'),
    importedAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'Framework' });

export const importResultSchema = z
  .object({
    framework: frameworkSchema,
    counts: z
      .object({
        added: z.number().int(),
        updated: z.number().int().describe('Changed, or back after a withdrawal'),
        unchanged: z.number().int(),
        withdrawn: z.number().int().describe('Items the package no longer holds (kept, not offered)'),
      })
      .describe('Each item of the package counted once in added, updated or unchanged'),
  })
  .meta({ id: 'FrameworkImport' });

export const standardItemSchema = z
  .object({
    identifier: z.string().describe('CFItem.identifier'),
    code: z.string().describe('CFItem.humanCodingScheme'),
    statement: z.string(),
    uri: z.string(),
    frameworkId: z.uuid(),
    frameworkTitle: z.string(),
    educationLevels: z.array(z.string()),
  })
  .meta({ id: 'StandardItem' });

const optionalFilter = (label: string, max: number) =>
  z
    .string({ error: `${label} must be text` })
    // Checked before trimming: the document's maxLength is the length sent.
    .max(max, `${label} must be at most ${max} characters`)
    .trim()
    .optional()
    .transform((v) => (v ? v : undefined));

export const searchQuery = z.object({
  q: z
    .string({ error: 'q must be text' })
    .max(200, 'q must be at most 200 characters')
    .trim()
    .default('')
    .describe('A code prefix (6.RP, case-insensitive) or words of the statement; empty lists items by code'),
  grade: optionalFilter('grade', 20).describe('An education level, e.g. 06 or 6, KG'),
  subject: optionalFilter('subject', 200).describe('A subject of the framework, e.g. Mathematics'),
  frameworkId: z.uuid({ error: 'frameworkId must be a UUID' }).optional(),
  limit: z.coerce
    .number({ error: 'limit must be a number' })
    .int('limit must be a whole number')
    .min(1, 'limit must be at least 1')
    .max(SEARCH_LIMIT.max, `limit must be at most ${SEARCH_LIMIT.max}`)
    .default(SEARCH_LIMIT.default),
});
export type SearchQuery = z.infer<typeof searchQuery>;
