// Class form validation: the dashboard modal (subject from 7 options, period optional)
// and the classes page / edit form (name, subject and period all required, subject free text).
import { z } from 'zod/mini';

export const SUBJECT_OPTIONS = ['Math', 'English', 'Science', 'History', 'Art', 'PE', 'Other'] as const;

export type ClassFormVariant = 'dashboard' | 'full';

const required = (message: string) => z.string().check(z.trim(), z.minLength(1, message));

export const dashboardClassSchema = z.object({
  name: required('validation.classNameRequired'),
  subject: required('validation.subjectRequired'),
  period: z.string().check(z.trim()),
});

export const fullClassSchema = z.object({
  name: required('validation.classNameRequired'),
  subject: required('validation.subjectRequired'),
  period: required('validation.periodRequired'),
});

export type ClassFormValues = z.infer<typeof fullClassSchema>;

export function classSchema(variant: ClassFormVariant) {
  return variant === 'dashboard' ? dashboardClassSchema : fullClassSchema;
}
