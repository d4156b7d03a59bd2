// Join code validation (spec §5): 6 to 8 characters, uppercase as typed.
import { z } from 'zod';

export const joinSchema = z.object({
  joinCode: z
    .string()
    .trim()
    .min(6, 'Join code must be at least 6 characters')
    .max(8, 'Join code must be at most 8 characters'),
});

export type JoinFormValues = z.infer<typeof joinSchema>;
