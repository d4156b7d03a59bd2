import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decodeSecretsKey, SecretOpenError, secretBox, SecretsKeyMissingError } from './secret-box.ts';

describe('secret box', () => {
  const key = randomBytes(32);
  const other = randomBytes(32);

  it('when a secret is sealed, then the sealed text does not contain it and opens to it in the same place only', () => {
    const box = secretBox({ current: key });
    const sealed = box.seal('client-secret-123', 'sso:1');
    expect(sealed).not.toContain('client-secret-123');
    expect(sealed.startsWith('v1:')).toBe(true);
    expect(box.open(sealed, 'sso:1')).toBe('client-secret-123');
    expect(() => box.open(sealed, 'sso:2')).toThrow(SecretOpenError);
    // Two seals of one secret differ (random IV).
    expect(box.seal('client-secret-123', 'sso:1')).not.toBe(sealed);
  });

  it('when the sealed text is altered, then it does not open', () => {
    const box = secretBox({ current: key });
    const sealed = box.seal('s', 'c');
    const parts = sealed.split(':');
    const body = Buffer.from(parts[3]!, 'base64url');
    body[0] = body[0]! ^ 1;
    parts[3] = body.toString('base64url');
    expect(() => box.open(parts.join(':'), 'c')).toThrow(SecretOpenError);
  });

  it('when the key is rotated, then a value sealed under the previous key still opens and is marked for resealing', () => {
    const sealed = secretBox({ current: key }).seal('s', 'c');
    const rotated = secretBox({ current: other, previous: key });
    expect(rotated.open(sealed, 'c')).toBe('s');
    expect(rotated.needsReseal(sealed)).toBe(true);
    expect(rotated.needsReseal(rotated.seal('s', 'c'))).toBe(false);
    expect(() => secretBox({ current: other }).open(sealed, 'c')).toThrow(/neither SECRETS_KEY/);
  });

  it('when no key is configured, then sealing fails with a clear error', () => {
    expect(() => secretBox({ current: undefined }).seal('s', 'c')).toThrow(SecretsKeyMissingError);
  });

  it('when a key is decoded, then only 32 bytes in base64 or base64url are accepted', () => {
    expect(decodeSecretsKey(key.toString('base64'))).toEqual(key);
    expect(decodeSecretsKey(key.toString('base64url'))).toEqual(key);
    expect(decodeSecretsKey(randomBytes(16).toString('base64'))).toBeUndefined();
    expect(decodeSecretsKey('not a key!')).toBeUndefined();
  });
});
