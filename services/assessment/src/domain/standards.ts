// Alignment to standards (docs/adr/012-standards.md): an assessment and each question carry copies
// of the CASE items chosen from the catalogue (identifier, human code, URI, framework). Only items
// of a framework the caller's tenant can see (its own or a platform one), not withdrawn, are
// taken; the labels `standard` and `topic` are filled from the chosen ones when left empty.
import { ValidationError } from '@checkpoint/service-kit';
import { clip, LABEL_MAX } from './labels.ts';

/** At most this many standards per assessment or question. */
export const MAX_STANDARDS = 10;
/** The longest CFItem identifier taken (a UUID or a URI-like text). */
export const MAX_STANDARD_IDENTIFIER = 255;

/** A chosen standard as copied: `statement` is kept for the assessment's (generation needs it). */
export interface StandardRef {
  identifier: string;
  code: string;
  uri: string;
  frameworkId: string | null;
  statement: string;
}

/** What a question read by its teacher shows of each standard. */
export const questionStandardView = (s: StandardRef) => ({ identifier: s.identifier, code: s.code, uri: s.uri });

/** What the assessment's detail shows of each chosen standard. */
export const assessmentStandardView = (s: StandardRef) => ({
  identifier: s.identifier,
  code: s.code,
  uri: s.uri,
  statement: s.statement,
  frameworkId: s.frameworkId,
});

/**
 * The chosen identifiers, each resolved in `found` (identifier → item), in the order given; the
 * first one not found is refused naming `standards[i]`.
 */
export function inOrder(identifiers: readonly string[], found: ReadonlyMap<string, StandardRef>): StandardRef[] {
  return identifiers.map((identifier, i) => {
    const ref = found.get(identifier);
    if (!ref) {
      const message = 'Not a standard of an imported framework';
      throw new ValidationError(message, { [`standards[${i}]`]: message });
    }
    return ref;
  });
}

/**
 * The labels with what the chosen standards say: an empty standard becomes their codes joined by
 * ", ", an empty topic the first one's statement, each cut to a label's length.
 */
export function labelsWithStandards(
  labels: { topic: string; standard: string },
  standards: readonly StandardRef[],
): { topic: string; standard: string } {
  if (standards.length === 0) return labels;
  return {
    standard:
      labels.standard.trim() === '' ? clip(standards.map((s) => s.code).join(', '), LABEL_MAX) : labels.standard,
    topic: labels.topic.trim() === '' ? clip(standards[0]!.statement, LABEL_MAX) : labels.topic,
  };
}
