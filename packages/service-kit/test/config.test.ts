import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { baseConfigSchema, ConfigError, envBoolean, parseConfig } from '../src/index.ts';

describe('parseConfig', () => {
  it('when a variable is malformed, then the error names it and the value', () => {
    const attempt = () => parseConfig(baseConfigSchema, { DATABASE_URL: 'postgres://u:p@h/db', PORT: 'eighty' });
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow(/PORT: .*"eighty"/);
  });

  it('when a required variable is missing, then the error names it', () => {
    expect(() => parseConfig(baseConfigSchema, {})).toThrow(/DATABASE_URL: .*unset/);
  });

  it('when values are valid, then defaults fill the rest', () => {
    const config = parseConfig(baseConfigSchema, {
      DATABASE_URL: 'postgresql://u:p@h:5432/db',
      SERVICE_TOKEN_SECRET: 'a-test-secret-of-at-least-32-characters',
    });
    expect(config).toMatchObject({
      PORT: 0,
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      DATABASE_POOL_SIZE: 10,
      DATABASE_POOL_IDLE_MS: 30_000,
      DATABASE_STATEMENT_TIMEOUT_MS: 20_000,
      INBOX_RETENTION_DAYS: 30,
    });
  });

  it('when the inbox retention is not a whole number of days, then the error names the variable', () => {
    expect(() =>
      parseConfig(baseConfigSchema, {
        DATABASE_URL: 'postgresql://u:p@h:5432/db',
        SERVICE_TOKEN_SECRET: 'a-test-secret-of-at-least-32-characters',
        INBOX_RETENTION_DAYS: '7d',
      }),
    ).toThrow(/INBOX_RETENTION_DAYS/);
  });

  it('when the pool idle time is below a second, then the error names the variable', () => {
    expect(() =>
      parseConfig(baseConfigSchema, {
        DATABASE_URL: 'postgresql://u:p@h:5432/db',
        SERVICE_TOKEN_SECRET: 'a-test-secret-of-at-least-32-characters',
        DATABASE_POOL_IDLE_MS: '10',
      }),
    ).toThrow(/DATABASE_POOL_IDLE_MS/);
  });

  it('when the statement timeout is not a whole number of ms, then the error names the variable', () => {
    expect(() =>
      parseConfig(baseConfigSchema, {
        DATABASE_URL: 'postgresql://u:p@h:5432/db',
        SERVICE_TOKEN_SECRET: 'a-test-secret-of-at-least-32-characters',
        DATABASE_STATEMENT_TIMEOUT_MS: '2s',
      }),
    ).toThrow(/DATABASE_STATEMENT_TIMEOUT_MS/);
  });

  it('when a secret or a URL with a password is malformed, then the error hides the secret', () => {
    const schema = z.object({
      SMTP_URL: z.string().startsWith('smtp', 'must be an smtp URL'),
      API_SECRET: z.string().min(32, 'too short'),
    });
    const attempt = () =>
      parseConfig(schema, { SMTP_URL: 'http://mailer:hunter2@mail.example.com', API_SECRET: 'hunter3' });
    expect(attempt).toThrow(/SMTP_URL: must be an smtp URL \(got "http:\/\/mailer:\*\*\*@mail\.example\.com\/"\)/);
    expect(attempt).toThrow(/API_SECRET: too short \(got "\(hidden\)"\)/);
    expect(attempt).not.toThrow(/hunter/);
  });

  it('when a boolean is not true/false, then it is refused', () => {
    const schema = z.object({ FLAG: envBoolean(false) });
    expect(parseConfig(schema, { FLAG: 'YES' }).FLAG).toBe(true);
    expect(parseConfig(schema, {}).FLAG).toBe(false);
    expect(() => parseConfig(schema, { FLAG: 'maybe' })).toThrow(/FLAG: must be true or false/);
  });
});
