// Checks on what other services' events carry before it reaches the read model: an event that
// breaks them fails with a message naming the field, and the bus sets it aside (dead-letter topic)
// after its retries instead of storing nonsense.
export const LEVELS = ['below', 'at', 'above'] as const;
export type Level = (typeof LEVELS)[number];
/** What raised a result's level after submission: only support practice (ResultLevelRaised). */
export const RAISED_BY = ['practice'] as const;
export type RaisedBy = (typeof RAISED_BY)[number];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export class InvalidEventError extends Error {
  constructor(type: string, field: string, problem: string) {
    super(`${type}: ${field} ${problem}`);
    this.name = 'InvalidEventError';
  }
}

/** Throws unless every named field is a UUID. */
export function requireIds(type: string, fields: Record<string, string>): void {
  for (const [field, value] of Object.entries(fields)) {
    if (!UUID.test(value))
      throw new InvalidEventError(type, field, `is not a UUID (${JSON.stringify(value.slice(0, 40))})`);
  }
}

export const PRACTICE_TYPES = ['support', 'enrichment'] as const;

export function requireOneOf<T extends string>(type: string, field: string, value: string, allowed: readonly T[]): T {
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new InvalidEventError(type, field, `must be one of ${allowed.join(', ')}`);
}

export const requireLevel = (type: string, field: string, value: string): Level =>
  requireOneOf(type, field, value, LEVELS);

export function requirePercentage(type: string, field: string, value: number): number {
  if (Number.isFinite(value) && value >= 0 && value <= 100) return value;
  throw new InvalidEventError(type, field, 'must be a number from 0 to 100');
}

export function requirePoints(type: string, field: string, value: number): number {
  if (Number.isFinite(value) && value >= 0) return value;
  throw new InvalidEventError(type, field, 'must be a number of at least 0');
}

/** A count of questions: a whole number from 0 to 1000 (far above any assessment's length). */
export function requireCount(type: string, field: string, value: number): number {
  if (Number.isInteger(value) && value >= 0 && value <= 1000) return value;
  throw new InvalidEventError(type, field, 'must be a whole number from 0 to 1000');
}

/** A text field that must be present and short (a standard's identifier or code): 1 to `max` characters. */
export function requireText(type: string, field: string, value: string, max = 300): string {
  if (value.trim().length > 0 && value.length <= max) return value;
  throw new InvalidEventError(type, field, `must be 1 to ${max} characters`);
}
