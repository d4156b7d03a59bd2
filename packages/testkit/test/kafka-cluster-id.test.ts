// The KRaft cluster id handed to Kafka's storage tool on the command line.
import { describe, expect, it } from 'vitest';
import { newClusterId } from '../src/kafka.ts';

describe('newClusterId', () => {
  it('when many ids are made, then none starts with "-" and each is 16 bytes of base64url', () => {
    // With plain random ids about 1 in 64 starts with '-': 2000 draws would hit that almost surely.
    const ids = Array.from({ length: 2000 }, newClusterId);
    for (const id of ids) {
      expect(id).toMatch(/^[A-Za-z0-9_][A-Za-z0-9_-]{21}$/);
      expect(Buffer.from(id, 'base64url')).toHaveLength(16);
    }
    expect(new Set(ids).size).toBe(ids.length);
  });
});
