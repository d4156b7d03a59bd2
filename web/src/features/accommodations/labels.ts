// How a teacher reads each accommodation: the labels of the edit dialog, the class's table and the
// substitute's printed list.
import type { Accommodations, ClassStudentAccommodations } from './accommodationsApi';
import type { TFunction } from '../../i18n/i18n';
import { formatNumber } from '../../i18n/format';

export const NO_ACCOMMODATIONS: Accommodations = {
  readAloud: false,
  reducedChoices: 0,
  extraTime: 1,
  largeText: false,
  highContrast: false,
  lineGuide: false,
  answerMasking: false,
};

/** The on/off accommodations: each one's label and hint are keys of the teacher namespace. */
export const FLAGS = ['readAloud', 'largeText', 'highContrast', 'lineGuide', 'answerMasking'] as const;
export type Flag = (typeof FLAGS)[number];

/** "Read aloud", "Large text"… in the interface's language. */
export const flagLabel = (flag: Flag, t: TFunction) => t(`teacher:accommodations.flag.${flag}`);

/** A factor of time ("1.5× time"). */
export const timeFactorText = (factor: number, t: TFunction) =>
  t('teacher:accommodations.timeFactor', { factor: formatNumber(factor) });

/** "1.5× time", "No time limit"; standard time: undefined. */
export function extraTimeText(extraTime: Accommodations['extraTime'], t: TFunction): string | undefined {
  if (extraTime === 'none') return t('teacher:accommodations.noTimeLimit');
  if (extraTime === 1) return undefined;
  return timeFactorText(extraTime, t);
}

/** "Fewer answer choices (remove 1)"; all choices: undefined. */
export function reducedChoicesText(reducedChoices: number, t: TFunction): string | undefined {
  return reducedChoices > 0 ? t('teacher:accommodations.fewerChoicesRemove', { count: reducedChoices }) : undefined;
}

/** Each accommodation the student has, as the teacher reads it, in the dialog's order. */
export function accommodationList(a: Accommodations, t: TFunction): string[] {
  return [
    a.readAloud ? flagLabel('readAloud', t) : undefined,
    reducedChoicesText(a.reducedChoices, t),
    extraTimeText(a.extraTime, t),
    ...(['largeText', 'highContrast', 'lineGuide', 'answerMasking'] as const).map((f) =>
      a[f] ? flagLabel(f, t) : undefined,
    ),
  ].filter((s): s is string => s !== undefined);
}

export const studentName = (s: Pick<ClassStudentAccommodations, 'firstName' | 'lastName'>, t: TFunction) =>
  [s.firstName, s.lastName].filter(Boolean).join(' ') || t('teacher:accommodations.unnamed');
