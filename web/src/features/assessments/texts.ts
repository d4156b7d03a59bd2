// The assessments feature's English texts of its pure helpers (the forms' validation messages, the
// generation texts), shown in the interface's language: each known English text has its key in the
// assessments namespace; anything else (a server's message) is shown as it came.
import { useCallback } from 'react';
import { useTranslation } from '../../i18n/react';
import { MESSAGES } from './assessmentSchemas';
import {
  CREATE_FAILED,
  CREATED,
  CREATED_FROM_TEXT,
  ENGLISH_ONLY,
  QUOTA_EXCEEDED,
  SOURCE_LABELS,
  SUCCESS_HEADERS,
  WRITING_LABELS,
} from './generationText';

const KEYS = new Map<string, string>([
  ...Object.entries(MESSAGES).map(([name, english]): [string, string] => [english, `validation.${name}`]),
  [CREATE_FAILED, 'generation.createFailed'],
  [QUOTA_EXCEEDED, 'generation.quota'],
  [CREATED, 'generation.created'],
  [CREATED_FROM_TEXT, 'generation.createdFromText'],
  [ENGLISH_ONLY, 'generation.englishOnly'],
  [SOURCE_LABELS.model, 'generation.byModel'],
  [SOURCE_LABELS.text, 'generation.fromText'],
  [SUCCESS_HEADERS.model, 'generation.headerModel'],
  [SUCCESS_HEADERS.text, 'generation.headerText'],
  [SUCCESS_HEADERS.none, 'generation.header'],
  [WRITING_LABELS.model, 'generation.writingModel'],
  [WRITING_LABELS.text, 'generation.writingText'],
  [WRITING_LABELS.none, 'generation.writing'],
]);

/** The key (assessments namespace) of one of the feature's English texts, or undefined. */
export const keyOfText = (english: string): string | undefined => KEYS.get(english);

/** One of the feature's English texts (a validation message, a generation text) in the interface's language. */
export function useAssessmentText(): <T extends string | null | undefined>(text: T) => T | string {
  const { t } = useTranslation('assessments');
  return useCallback(
    <T extends string | null | undefined>(text: T): T | string => {
      const key = text ? KEYS.get(text) : undefined;
      return key ? t(key) : text;
    },
    [t],
  );
}
