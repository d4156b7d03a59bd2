// The Kafka connection's variables (KAFKA_TLS*, KAFKA_SASL_*): parsed with the base schema, then
// put together by kafkaConnection, which reads the files and names the variable of every problem.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { baseConfigSchema, ConfigError, kafkaConnection, parseConfig } from '../src/config.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'kafka-connection-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const CA = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
const caFile = path.join(dir, 'ca.crt');
writeFileSync(caFile, CA);
const passwordFile = path.join(dir, 'password');
writeFileSync(passwordFile, 's3cret\n');

const BASE = {
  DATABASE_URL: 'postgresql://u:p@h:5432/db',
  SERVICE_TOKEN_SECRET: 'a-test-secret-of-at-least-32-characters',
};

const connection = (env: Record<string, string>) => kafkaConnection(parseConfig(baseConfigSchema, { ...BASE, ...env }));

/** The ConfigError's problems (fails the test when nothing is thrown). */
function problems(env: Record<string, string>): string[] {
  try {
    connection(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error('no ConfigError');
}

describe('kafkaConnection', () => {
  it('when no Kafka security variable is set, then the connection stays plain and anonymous', () => {
    expect(connection({})).toEqual({ warnings: [] });
    expect(connection({ KAFKA_TLS: 'false', KAFKA_SASL_MECHANISM: '', KAFKA_TLS_CA_FILE: '' })).toEqual({
      warnings: [],
    });
  });

  it('when TLS is on without a CA file, then the system CAs verify the brokers', () => {
    expect(connection({ KAFKA_TLS: 'true' })).toEqual({ tls: true, warnings: [] });
  });

  it('when TLS is on with a CA file, then its PEM is read at start', () => {
    expect(connection({ KAFKA_TLS: 'true', KAFKA_TLS_CA_FILE: caFile })).toEqual({ tls: { ca: CA }, warnings: [] });
  });

  it('when the CA file cannot be read, then the error names KAFKA_TLS_CA_FILE and the path', () => {
    const missing = path.join(dir, 'nope.crt');
    expect(problems({ KAFKA_TLS: 'true', KAFKA_TLS_CA_FILE: missing })).toEqual([
      `KAFKA_TLS_CA_FILE: cannot read ${missing} (ENOENT)`,
    ]);
  });

  it('when the CA file holds no certificate, then the error names KAFKA_TLS_CA_FILE', () => {
    expect(problems({ KAFKA_TLS: 'true', KAFKA_TLS_CA_FILE: passwordFile })).toEqual([
      `KAFKA_TLS_CA_FILE: ${passwordFile} holds no PEM certificate`,
    ]);
  });

  it('when a CA file is given but TLS is off, then the error says to set KAFKA_TLS', () => {
    expect(problems({ KAFKA_TLS_CA_FILE: caFile })).toEqual([
      'KAFKA_TLS_CA_FILE: set, but KAFKA_TLS is not true (set KAFKA_TLS=true to use TLS)',
    ]);
  });

  it('when KAFKA_TLS is not a boolean, then parsing names it', () => {
    expect(() => connection({ KAFKA_TLS: 'on' })).toThrow(/KAFKA_TLS: must be true or false \(got "on"\)/);
  });

  it('when SCRAM is set over TLS, then the credentials are passed with no warning', () => {
    expect(
      connection({
        KAFKA_TLS: 'true',
        KAFKA_TLS_CA_FILE: caFile,
        KAFKA_SASL_MECHANISM: 'SCRAM-SHA-512',
        KAFKA_SASL_USERNAME: 'checkpoint',
        KAFKA_SASL_PASSWORD: 'pw',
      }),
    ).toEqual({
      tls: { ca: CA },
      sasl: { mechanism: 'scram-sha-512', username: 'checkpoint', password: 'pw' },
      warnings: [],
    });
  });

  it('when the password comes from a file, then one trailing newline is dropped', () => {
    expect(
      connection({
        KAFKA_TLS: 'true',
        KAFKA_SASL_MECHANISM: 'scram-sha-256',
        KAFKA_SASL_USERNAME: 'u',
        KAFKA_SASL_PASSWORD_FILE: passwordFile,
      }).sasl,
    ).toEqual({ mechanism: 'scram-sha-256', username: 'u', password: 's3cret' });
  });

  it('when the password file cannot be read, then the error names KAFKA_SASL_PASSWORD_FILE', () => {
    const missing = path.join(dir, 'none');
    expect(
      problems({
        KAFKA_TLS: 'true',
        KAFKA_SASL_MECHANISM: 'scram-sha-512',
        KAFKA_SASL_USERNAME: 'u',
        KAFKA_SASL_PASSWORD_FILE: missing,
      }),
    ).toEqual([`KAFKA_SASL_PASSWORD_FILE: cannot read ${missing} (ENOENT)`]);
  });

  it('when the mechanism is unknown, then parsing names KAFKA_SASL_MECHANISM and the choices', () => {
    expect(() => connection({ KAFKA_SASL_MECHANISM: 'gssapi' })).toThrow(
      /KAFKA_SASL_MECHANISM: must be scram-sha-512, scram-sha-256 or plain \(got "gssapi"\)/,
    );
  });

  it('when a mechanism is set without credentials, then the errors name the username and password', () => {
    expect(problems({ KAFKA_TLS: 'true', KAFKA_SASL_MECHANISM: 'scram-sha-512' })).toEqual([
      'KAFKA_SASL_PASSWORD: required with KAFKA_SASL_MECHANISM=scram-sha-512 (or KAFKA_SASL_PASSWORD_FILE)',
      'KAFKA_SASL_USERNAME: required with KAFKA_SASL_MECHANISM=scram-sha-512',
    ]);
  });

  it('when both a password and a password file are set, then the error asks for one', () => {
    expect(
      problems({
        KAFKA_TLS: 'true',
        KAFKA_SASL_MECHANISM: 'scram-sha-512',
        KAFKA_SASL_USERNAME: 'u',
        KAFKA_SASL_PASSWORD: 'pw',
        KAFKA_SASL_PASSWORD_FILE: passwordFile,
      }),
    ).toEqual(['KAFKA_SASL_PASSWORD_FILE: set together with KAFKA_SASL_PASSWORD (set one)']);
  });

  it('when credentials are set without a mechanism, then the error names KAFKA_SASL_MECHANISM', () => {
    expect(problems({ KAFKA_SASL_USERNAME: 'u', KAFKA_SASL_PASSWORD: 'pw' })).toEqual([
      'KAFKA_SASL_USERNAME: set, but KAFKA_SASL_MECHANISM is not',
      'KAFKA_SASL_PASSWORD: set, but KAFKA_SASL_MECHANISM is not',
    ]);
  });

  it('when SCRAM is used without TLS, then it is allowed with a warning', () => {
    const result = connection({
      KAFKA_SASL_MECHANISM: 'scram-sha-512',
      KAFKA_SASL_USERNAME: 'u',
      KAFKA_SASL_PASSWORD: 'p',
    });
    expect(result.tls).toBeUndefined();
    expect(result.sasl?.mechanism).toBe('scram-sha-512');
    expect(result.warnings).toEqual([
      'Kafka: SASL scram-sha-512 without KAFKA_TLS: the events cross the network unencrypted',
    ]);
  });

  it('when PLAIN is used without TLS, then it is refused unless explicitly allowed, and then warned about', () => {
    const env = { KAFKA_SASL_MECHANISM: 'plain', KAFKA_SASL_USERNAME: 'u', KAFKA_SASL_PASSWORD: 'p' };
    expect(problems(env)).toEqual([
      'KAFKA_SASL_MECHANISM: plain sends the password as written: set KAFKA_TLS=true (or KAFKA_SASL_ALLOW_PLAINTEXT=true where the connection is encrypted otherwise)',
    ]);
    expect(connection({ ...env, KAFKA_SASL_ALLOW_PLAINTEXT: 'true' }).warnings).toEqual([
      'Kafka: SASL PLAIN without KAFKA_TLS: the password and the events cross the network unencrypted',
    ]);
    expect(connection({ ...env, KAFKA_TLS: 'true' }).warnings).toEqual([]);
  });
});
