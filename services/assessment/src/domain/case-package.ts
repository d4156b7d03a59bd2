// A 1EdTech CASE 1.0/1.1 CFPackage (CFDocument, CFItems, CFAssociations, CFDefinitions) as the
// catalogue reads it (docs/adr/012-standards.md). Only what the catalogue keeps is checked closely;
// other fields of the standard are let through. A package is refused whole (400 naming the item,
// e.g. `CFItems.3.humanCodingScheme`) when an item has no identifier, code or statement, two items
// share an identifier, or an association points outside the package.
import { z } from 'zod';

const MAX_TEXT = 20_000;
const text = (label: string, max = MAX_TEXT) =>
  z
    .string({ error: `${label} must be text` })
    .trim()
    .max(max, `${label} must be at most ${max} characters`);
const required = (label: string, max = MAX_TEXT) => text(label, max).min(1, `${label} is required`);
/** A CASE identifier (a UUID in practice; any non-blank text up to 200 characters is taken). */
const identifier = (label: string) => required(label, 200);

const nodeRef = z.looseObject({
  identifier: identifier('identifier'),
  uri: text('uri', 2000).optional(),
  title: text('title').optional(),
});

export const cfDocumentSchema = z.looseObject({
  identifier: identifier('CFDocument.identifier'),
  uri: text('CFDocument.uri', 2000).optional(),
  title: required('CFDocument.title', 500),
  creator: text('CFDocument.creator', 500).optional(),
  version: text('CFDocument.version', 200).optional(),
  // CASE 1.0/1.1: a list of subject names (some providers send one text).
  subject: z
    .union([z.array(text('CFDocument.subject', 200)).max(50), text('CFDocument.subject', 200)])
    .optional()
    .describe('Subject names, e.g. ["Mathematics"]'),
  adoptionStatus: text('CFDocument.adoptionStatus', 200).optional(),
});

export const cfItemSchema = z.looseObject({
  identifier: identifier('identifier'),
  uri: text('uri', 2000).optional(),
  humanCodingScheme: required('humanCodingScheme', 200).describe('The code, e.g. 6.RP.A.1'),
  fullStatement: required('fullStatement'),
  CFItemType: text('CFItemType', 200).optional(),
  educationLevel: z.array(text('educationLevel', 20)).max(20).optional().describe('Grades, e.g. ["06"], "KG"'),
});

export const cfAssociationSchema = z.looseObject({
  identifier: identifier('identifier'),
  associationType: required('associationType', 100),
  originNodeURI: nodeRef,
  destinationNodeURI: nodeRef,
});

/**
 * Association types whose destination may be another framework's item (a state standard that is
 * an exact match of a national one): only their origin must be in the package.
 */
const CROSS_FRAMEWORK = new Set(['exactMatchOf', 'isRelatedTo', 'isPeerOf', 'replacedBy', 'exemplar']);

export const casePackageShape = {
  CFDocument: cfDocumentSchema,
  CFItems: z.array(cfItemSchema).max(200_000, 'A package holds at most 200000 items'),
  CFAssociations: z.array(cfAssociationSchema).max(1_000_000).optional(),
  CFDefinitions: z.looseObject({}).optional(),
};

/** Checks across items: unique identifiers, associations inside the package. */
export function checkPackageLinks(
  p: { CFDocument: { identifier: string }; CFItems: CfItem[]; CFAssociations?: CfAssociation[] | undefined },
  ctx: z.RefinementCtx,
): void {
  const seen = new Map<string, number>();
  p.CFItems.forEach((item, i) => {
    const first = seen.get(item.identifier);
    if (first !== undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['CFItems', i, 'identifier'],
        message: `CFItems[${i}] has the identifier of CFItems[${first}] (${item.identifier})`,
      });
    else seen.set(item.identifier, i);
  });
  const inPackage = (id: string) => seen.has(id) || id === p.CFDocument.identifier;
  (p.CFAssociations ?? []).forEach((a, i) => {
    if (!inPackage(a.originNodeURI.identifier))
      ctx.addIssue({
        code: 'custom',
        path: ['CFAssociations', i, 'originNodeURI', 'identifier'],
        message: `CFAssociations[${i}] starts at ${a.originNodeURI.identifier}, which is not in the package`,
      });
    if (!CROSS_FRAMEWORK.has(a.associationType) && !inPackage(a.destinationNodeURI.identifier))
      ctx.addIssue({
        code: 'custom',
        path: ['CFAssociations', i, 'destinationNodeURI', 'identifier'],
        message: `CFAssociations[${i}] (${a.associationType}) points to ${a.destinationNodeURI.identifier}, which is not in the package`,
      });
  });
}

export const casePackageSchema = z.object(casePackageShape).superRefine(checkPackageLinks);

export type CfItem = z.infer<typeof cfItemSchema>;
export type CfAssociation = z.infer<typeof cfAssociationSchema>;
export type CasePackage = z.infer<typeof casePackageSchema>;

/** What the catalogue stores of a package. */
export interface FrameworkInput {
  documentIdentifier: string;
  title: string;
  creator: string;
  version: string;
  uri: string;
  subjects: string[];
  adoptionStatus: string;
  items: ItemInput[];
}

export interface ItemInput {
  identifier: string;
  code: string;
  statement: string;
  uri: string;
  itemType: string;
  educationLevels: string[];
}

export function frameworkOf(p: CasePackage): FrameworkInput {
  const d = p.CFDocument;
  const subject = d.subject;
  return {
    documentIdentifier: d.identifier,
    title: d.title,
    creator: d.creator ?? '',
    version: d.version ?? '',
    uri: d.uri ?? '',
    subjects: subject === undefined ? [] : Array.isArray(subject) ? subject.filter(Boolean) : [subject],
    adoptionStatus: d.adoptionStatus ?? '',
    items: p.CFItems.map((i) => ({
      identifier: i.identifier,
      code: i.humanCodingScheme,
      statement: i.fullStatement,
      uri: i.uri ?? '',
      itemType: i.CFItemType ?? '',
      educationLevels: [...new Set((i.educationLevel ?? []).map((g) => g.trim()).filter(Boolean))],
    })),
  };
}
