// Join code validation: 6 to 8 characters, uppercase as typed.
import { z } from 'zod/mini';

export const joinSchema = z.object({
  joinCode: z
    .string()
    .check(
      z.trim(),
      z.minLength(6, 'Join code must be at least 6 characters'),
      z.maxLength(8, 'Join code must be at most 8 characters'),
    ),
});

export type JoinFormValues = z.infer<typeof joinSchema>;
