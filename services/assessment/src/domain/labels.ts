// Topic and standard are short labels (a badge, a card line, the edit form). One of the two
// creation payloads ({standard, topic, questions: {instructions}}, createAssessmentBody in
// api/assessments.schemas.ts) sends the lesson itself in them; then the lesson is the
// content to assess and the labels are derived here rather than refused or stored whole.

/** How long a topic or a standard may be. */
export const LABEL_MAX = 120;

const squash = (s: string) => s.replace(/\s+/g, ' ').trim();

/** Whether a label field carries the lesson rather than a label: longer than a label, and the same text. */
export function isTheLesson(label: string | undefined, lesson: string): boolean {
  return label !== undefined && label.trim().length > LABEL_MAX && squash(label) === squash(lesson);
}

/** Cut at a word boundary to at most `max` characters, with an ellipsis when something was cut. */
export function clip(text: string, max: number): string {
  const s = squash(text);
  if (s.length <= max) return s;
  const cut = s.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:.-]+$/, '')}…`;
}

/**
 * The topic of an assessment whose topic field carried the lesson: the lesson's heading (a short
 * first line that is not a sentence), else the assessment's title, cut to a label's length.
 */
export function topicFromLesson(title: string, lesson: string): string {
  const lines = lesson.trim().split(/\r?\n/);
  const first = squash((lines[0] ?? '').replace(/^#+\s*/, ''));
  const heading = lines.length > 1 && first.length > 0 && first.length <= LABEL_MAX && !/[.!?;,:]$/.test(first);
  return clip(heading ? first : title, LABEL_MAX);
}

/**
 * The labels to store: a topic that is the lesson (or left out while the standard is the lesson)
 * becomes a derived topic; a standard that is the lesson is no standard (a standard is a code or a short statement, which the lesson does not give).
 */
export function labelsFor(input: { title: string; contentToAssess: string; topic: string; standard: string }): {
  topic: string;
  standard: string;
} {
  const standardIsLesson = isTheLesson(input.standard, input.contentToAssess);
  // The lesson came in a label field: a topic left out is derived too, as the edit form needs one.
  const deriveTopic = isTheLesson(input.topic, input.contentToAssess) || (standardIsLesson && input.topic === '');
  return {
    topic: deriveTopic ? topicFromLesson(input.title, input.contentToAssess) : input.topic,
    standard: standardIsLesson ? '' : input.standard,
  };
}
