// Ids as every Checkpoint service writes them (UUIDs), and the check of those an event carries.

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A malformed event: refused (the bus retries it, then dead-letters it), naming the field. */
export class InvalidEventError extends Error {
  constructor(type: string, field: string, why: string) {
    super(`${type}: ${field} ${why}`);
    this.name = 'InvalidEventError';
  }
}

/** Throws unless every named field is a UUID. */
export function requireIds(type: string, fields: Record<string, string>): void {
  for (const [field, value] of Object.entries(fields))
    if (!UUID.test(value))
      throw new InvalidEventError(type, field, `is not a UUID (${JSON.stringify(value.slice(0, 40))})`);
}
