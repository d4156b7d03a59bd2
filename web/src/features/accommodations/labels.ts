// How a teacher reads each accommodation: the labels of the edit dialog, the class's table and the
// substitute's printed list.
import type { Accommodations, ClassStudentAccommodations } from './accommodationsApi';

export const NO_ACCOMMODATIONS: Accommodations = {
  readAloud: false,
  reducedChoices: 0,
  extraTime: 1,
  largeText: false,
  highContrast: false,
  lineGuide: false,
  answerMasking: false,
};

export const FLAG_LABELS = {
  readAloud: 'Read aloud',
  largeText: 'Large text',
  highContrast: 'High contrast',
  lineGuide: 'Line guide',
  answerMasking: 'Answer masking',
} as const;
export type Flag = keyof typeof FLAG_LABELS;
export const FLAGS = Object.keys(FLAG_LABELS) as Flag[];

/** "1.5× time", "No time limit"; standard time: undefined. */
export function extraTimeText(extraTime: Accommodations['extraTime']): string | undefined {
  if (extraTime === 'none') return 'No time limit';
  if (extraTime === 1) return undefined;
  return `${extraTime}× time`;
}

/** "Fewer answer choices (remove 1)"; all choices: undefined. */
export function reducedChoicesText(reducedChoices: number): string | undefined {
  return reducedChoices > 0 ? `Fewer answer choices (remove ${reducedChoices})` : undefined;
}

/** Each accommodation the student has, as the teacher reads it, in the dialog's order. */
export function accommodationList(a: Accommodations): string[] {
  return [
    a.readAloud ? FLAG_LABELS.readAloud : undefined,
    reducedChoicesText(a.reducedChoices),
    extraTimeText(a.extraTime),
    ...(['largeText', 'highContrast', 'lineGuide', 'answerMasking'] as const).map((f) =>
      a[f] ? FLAG_LABELS[f] : undefined,
    ),
  ].filter((s): s is string => s !== undefined);
}

export const studentName = (s: Pick<ClassStudentAccommodations, 'firstName' | 'lastName'>) =>
  [s.firstName, s.lastName].filter(Boolean).join(' ') || 'Unnamed student';
