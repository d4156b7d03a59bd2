import { describe, expect, it } from 'vitest';
import type { IHeaders } from 'kafkajs';
import { withValues } from '../src/kafka-bus.ts';

describe('withValues (the headers a consumed record is read and dead-lettered with)', () => {
  it('leaves out a header another client sent with a null value, keeping the rest', () => {
    // KafkaJS reads a header of length -1 as null; its type does not say so.
    const headers = { ce_id: Buffer.from('e-1'), traceparent: null, tenant: 't-1' } as unknown as IHeaders;
    expect(withValues(headers)).toEqual({ ce_id: Buffer.from('e-1'), tenant: 't-1' });
  });

  it('keeps repeated headers as a list without their null values, and drops one left empty', () => {
    const headers = { a: [null, Buffer.from('x'), 'y'], b: [null] } as unknown as IHeaders;
    expect(withValues(headers)).toEqual({ a: [Buffer.from('x'), 'y'] });
  });

  it('takes a record without headers', () => {
    expect(withValues(undefined)).toEqual({});
  });
});
