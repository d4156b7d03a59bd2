// CASE 1.1 CFPackages written for the tests: a few grade 6 ratio and proportion standards in the
// style of a state's mathematics framework (codes such as 6.RP.A.1), with their cluster and the
// isChildOf associations a provider publishes.
import { randomUUID } from 'node:crypto';

export interface TestItem {
  identifier: string;
  humanCodingScheme?: string;
  fullStatement?: string;
  educationLevel?: string[];
  CFItemType?: string;
  uri?: string;
}

const PROVIDER = 'https://case.example.org/ims/case/v1p0';

export const RATIOS = [
  {
    code: '6.RP.A.1',
    statement:
      'Understand the concept of a ratio and use ratio language to describe a ratio relationship between two quantities.',
  },
  {
    code: '6.RP.A.2',
    statement:
      'Understand the concept of a unit rate a/b associated with a ratio a:b with b ≠ 0, and use rate language in the context of a ratio relationship.',
  },
  {
    code: '6.RP.A.3',
    statement: 'Use ratio and rate reasoning to solve real-world and mathematical problems.',
  },
  {
    code: '6.NS.A.1',
    statement: 'Interpret and compute quotients of fractions, and solve word problems involving division of fractions.',
  },
  {
    code: '7.RP.A.1',
    statement: 'Compute unit rates associated with ratios of fractions, including ratios of lengths and areas.',
  },
];

/** A package: a CFDocument (subject Mathematics), the items, and each item's isChildOf the document. */
export function casePackage(options: { documentId?: string; title?: string; subject?: string[]; items?: TestItem[] }) {
  const documentId = options.documentId ?? randomUUID();
  const items =
    options.items ??
    RATIOS.map((r) => ({
      identifier: randomUUID(),
      humanCodingScheme: r.code,
      fullStatement: r.statement,
      educationLevel: [r.code.startsWith('7') ? '07' : '06'],
      CFItemType: 'Standard',
    }));
  return {
    CFDocument: {
      identifier: documentId,
      uri: `${PROVIDER}/CFDocuments/${documentId}`,
      creator: 'State Department of Education',
      title: options.title ?? 'State Mathematics Standards',
      lastChangeDateTime: '2026-06-01T00:00:00+00:00',
      version: '2026',
      subject: options.subject ?? ['Mathematics'],
      adoptionStatus: 'Adopted',
      language: 'en',
      CFPackageURI: {
        title: 'State Mathematics Standards',
        identifier: documentId,
        uri: `${PROVIDER}/CFPackages/${documentId}`,
      },
    },
    CFItems: items.map((i) => ({
      uri: `${PROVIDER}/CFItems/${i.identifier}`,
      lastChangeDateTime: '2026-06-01T00:00:00+00:00',
      CFDocumentURI: {
        title: 'State Mathematics Standards',
        identifier: documentId,
        uri: `${PROVIDER}/CFDocuments/${documentId}`,
      },
      ...i,
    })),
    CFAssociations: items.map((i) => ({
      identifier: randomUUID(),
      associationType: 'isChildOf',
      uri: `${PROVIDER}/CFAssociations/${i.identifier}`,
      lastChangeDateTime: '2026-06-01T00:00:00+00:00',
      originNodeURI: {
        title: i.humanCodingScheme ?? '',
        identifier: i.identifier,
        uri: `${PROVIDER}/CFItems/${i.identifier}`,
      },
      destinationNodeURI: {
        title: 'State Mathematics Standards',
        identifier: documentId,
        uri: `${PROVIDER}/CFDocuments/${documentId}`,
      },
    })),
  };
}

export type TestPackage = ReturnType<typeof casePackage>;
