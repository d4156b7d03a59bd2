// Which database and schema `checkpoint migrate` uses for each service (app/src/migrate.ts), and
// the errors that name the variable when the environment is incomplete or wrong.
import { describe, expect, it } from 'vitest';
import { ConfigError } from '@checkpoint/service-kit';
import { migrationTargets, SERVICE_NAMES } from '../../app/src/migrate.ts';

const url = (user: string) => `postgres://${user}:pw@127.0.0.1:5432/checkpoint`;
const summary = (env: Record<string, string>, names: string[] = []) =>
  migrationTargets(names, env).map((t) => [t.service.name, new URL(t.url).username, t.schema]);

describe('migrate: targets', () => {
  it('when only DATABASE_URL is set, then every service is migrated through it, each in its own schema', () => {
    expect(summary({ DATABASE_URL: url('admin') })).toEqual(SERVICE_NAMES.map((s) => [s, 'admin', s]));
  });

  it('when <NAME>_DATABASE_URL is set, then that service uses it; the others fall back to DATABASE_URL', () => {
    expect(summary({ DATABASE_URL: url('admin'), CLASS_DATABASE_URL: url('cp_class') })).toContainEqual([
      'class',
      'cp_class',
      'class',
    ]);
    expect(summary({ DATABASE_URL: url('admin'), CLASS_DATABASE_URL: url('cp_class') })).toContainEqual([
      'identity',
      'admin',
      'identity',
    ]);
  });

  it('when one service is named with its own env, then DATABASE_SCHEMA applies to it; for several it is ignored', () => {
    expect(summary({ DATABASE_URL: url('cp_identity'), DATABASE_SCHEMA: 'ident' }, ['identity'])).toEqual([
      ['identity', 'cp_identity', 'ident'],
    ]);
    expect(summary({ DATABASE_URL: url('admin'), DATABASE_SCHEMA: 'ident' }, ['identity', 'class'])).toEqual([
      ['identity', 'admin', 'identity'],
      ['class', 'admin', 'class'],
    ]);
    expect(summary({ DATABASE_URL: url('admin'), IDENTITY_DATABASE_SCHEMA: 'people' }, [])[0]).toEqual([
      'identity',
      'admin',
      'people',
    ]);
  });

  it('when a URL is missing or bad, a schema is not an identifier, or a service is unknown, then the error names it', () => {
    const problems = (names: string[], env: Record<string, string>) => {
      try {
        migrationTargets(names, env);
      } catch (err) {
        expect(err).toBeInstanceOf(ConfigError);
        return (err as ConfigError).problems.join('\n');
      }
      throw new Error('no error');
    };
    expect(problems(['class'], {})).toMatch(/^CLASS_DATABASE_URL: required/);
    expect(problems([], { IDENTITY_DATABASE_URL: 'mysql://x@y/z' })).toMatch(/IDENTITY_DATABASE_URL/);
    expect(problems([], { DATABASE_URL: url('a'), CLASS_DATABASE_SCHEMA: 'Drop Table' })).toMatch(
      /CLASS_DATABASE_SCHEMA: must be a lower-case SQL identifier/,
    );
    expect(problems(['billing'], { DATABASE_URL: url('a') })).toMatch(/service: one of identity, .* \(got "billing"\)/);
  });
});
