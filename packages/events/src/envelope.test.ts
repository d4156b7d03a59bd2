import { describe, expect, it } from 'vitest';
import { ClassCreatedSchema, UserRegisteredSchema } from './index.ts';
import { buildHeaders, readEnvelope } from './envelope.ts';
import { eventRegistry, topicFor } from './registry.ts';

describe('envelope', () => {
  it('when headers are built, then they follow the CloudEvents Kafka binding and read back', () => {
    const time = new Date('2026-01-02T03:04:05.000Z');
    const headers = buildHeaders({
      id: 'e-1',
      type: UserRegisteredSchema.typeName,
      source: 'identity',
      time,
      tenantId: 't-1',
    });
    expect(headers).toEqual({
      ce_specversion: '1.0',
      ce_id: 'e-1',
      ce_type: 'checkpoint.identity.v1.UserRegistered',
      ce_source: 'identity',
      ce_time: '2026-01-02T03:04:05.000Z',
      ce_tenantid: 't-1',
      'content-type': 'application/protobuf',
    });
    expect(readEnvelope({ topic: 'checkpoint.identity.v1', key: 'u-1', headers })).toEqual({
      id: 'e-1',
      type: 'checkpoint.identity.v1.UserRegistered',
      source: 'identity',
      time: '2026-01-02T03:04:05.000Z',
      tenantId: 't-1',
      topic: 'checkpoint.identity.v1',
      key: 'u-1',
    });
  });

  it('when ce_id is missing, then reading the envelope fails', () => {
    expect(() => readEnvelope({ topic: 't', key: 'k', headers: { ce_type: 'x' } })).toThrow(/ce_id/);
  });

  it('when a schema is mapped to a topic, then it is its service and version', () => {
    expect(topicFor(UserRegisteredSchema)).toBe('checkpoint.identity.v1');
    expect(topicFor(ClassCreatedSchema)).toBe('checkpoint.class.v1');
    expect(eventRegistry.getMessage('checkpoint.class.v1.StudentEnrolled')?.typeName).toBe(
      'checkpoint.class.v1.StudentEnrolled',
    );
  });
});
