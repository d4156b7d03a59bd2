// Join code validation: 6 to 8 characters, uppercase as typed.
import { z } from 'zod/mini';

export const joinSchema = z.object({
  joinCode: z
    .string()
    .check(z.trim(), z.minLength(6, 'validation.joinCodeMin'), z.maxLength(8, 'validation.joinCodeMax')),
});

export type JoinFormValues = z.infer<typeof joinSchema>;
