// Secrets at rest (an SSO connection's client secret): AES-256-GCM under SECRETS_KEY (32 bytes,
// base64). The sealed text names its key ("v1:<key id>:<iv>:<ciphertext+tag>", base64url), so a
// value sealed under SECRETS_KEY_PREVIOUS still opens during a rotation and is then sealed again.
// The additional data binds a sealed value to its place (e.g. the connection id): a copied
// ciphertext does not open elsewhere.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export class SecretsKeyMissingError extends Error {
  constructor() {
    super('SECRETS_KEY is not set: secrets (SSO client secrets) cannot be stored or read');
  }
}

export class SecretOpenError extends Error {}

/** The key's public name: the first 8 hex characters of its SHA-256 (says nothing of the key). */
export function keyId(key: Buffer): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 8);
}

/** Decodes a 32-byte key given as base64 or base64url; undefined if it is not one. */
export function decodeSecretsKey(text: string): Buffer | undefined {
  const trimmed = text.trim();
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(trimmed)) return undefined;
  const key = Buffer.from(trimmed.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  return key.length === 32 ? key : undefined;
}

export function isSealed(value: string): boolean {
  return value.startsWith(`${VERSION}:`);
}

export interface SecretBox {
  /** True when a key is configured. */
  readonly ready: boolean;
  seal(plain: string, context: string): string;
  open(sealed: string, context: string): string;
  /** True when `sealed` is not sealed under the current key (plain, or the previous key). */
  needsReseal(sealed: string): boolean;
}

export function secretBox(keys: { current: Buffer | undefined; previous?: Buffer | undefined }): SecretBox {
  const byId = new Map<string, Buffer>();
  if (keys.previous) byId.set(keyId(keys.previous), keys.previous);
  if (keys.current) byId.set(keyId(keys.current), keys.current);
  const currentId = keys.current ? keyId(keys.current) : undefined;
  return {
    ready: keys.current !== undefined,
    seal(plain, context) {
      if (!keys.current || !currentId) throw new SecretsKeyMissingError();
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', keys.current, iv);
      cipher.setAAD(Buffer.from(context));
      const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final(), cipher.getAuthTag()]);
      return [VERSION, currentId, iv.toString('base64url'), sealed.toString('base64url')].join(':');
    },
    open(sealed, context) {
      const [version, id, ivText, body] = sealed.split(':');
      if (version !== VERSION || !id || !ivText || !body) throw new SecretOpenError('not a sealed secret');
      const key = byId.get(id);
      if (!key) {
        if (byId.size === 0) throw new SecretsKeyMissingError();
        throw new SecretOpenError(`sealed under key ${id}, which is neither SECRETS_KEY nor SECRETS_KEY_PREVIOUS`);
      }
      const data = Buffer.from(body, 'base64url');
      if (data.length < TAG_BYTES) throw new SecretOpenError('sealed secret too short');
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(ivText, 'base64url'));
        decipher.setAAD(Buffer.from(context));
        decipher.setAuthTag(data.subarray(data.length - TAG_BYTES));
        return Buffer.concat([decipher.update(data.subarray(0, data.length - TAG_BYTES)), decipher.final()]).toString(
          'utf8',
        );
      } catch {
        throw new SecretOpenError('sealed secret does not open (altered, or sealed for another place)');
      }
    },
    needsReseal(sealed) {
      return !isSealed(sealed) || sealed.split(':')[1] !== currentId;
    },
  };
}
