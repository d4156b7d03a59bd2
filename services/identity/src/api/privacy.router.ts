// Privacy operations of a district's admin (docs/adr/009-privacy-operations.md): a student's
// export and deletion, the district's deletion (typed confirmation), the retention period and the
// audit log. Admins only, always scoped to the caller's own tenant (a foreign id answers 404).
import { ApiRouter, clientAddress, csvText, peerClaims, type Caller } from '@checkpoint/service-kit';
import type { Request } from 'express';
import { strToU8, zipSync } from 'fflate';
import type pg from 'pg';
import { z } from 'zod';
import { listAudit } from '../domain/privacy/audit-log.ts';
import { exportCsv } from '../domain/privacy/export-format.ts';
import { exportFileName, exportHtml } from '../domain/privacy/export-document.ts';
import { privacyUseCases, type PrivacyActor } from '../domain/privacy/privacy.use-case.ts';

const ADMIN = ['admin'] as const;
const AUDIT_EXPORT_MAX = 100_000;

const studentParams = z.object({ id: z.string().max(100) });
const requestParams = z.object({ id: z.string().max(100), requestId: z.string().max(100) });

const requestStatus = z
  .object({
    requestId: z.uuid(),
    kind: z.enum(['export', 'delete_user', 'delete_tenant']),
    createdAt: z.string(),
    expected: z.number().int().describe('Services that hold data of the subject'),
    answered: z.number().int().describe('Services that answered (exported or deleted)'),
    complete: z.boolean(),
    services: z.array(z.object({ service: z.string(), answered: z.boolean(), rows: z.number().nullable() })),
  })
  .meta({ id: 'PrivacyRequestStatus' });

const retentionSchema = z
  .object({
    retentionDays: z.number().int().nullable().describe('Days student activity is kept; null = keep'),
    districtName: z.string(),
  })
  .meta({ id: 'PrivacySettings' });

const retentionBody = z.object({
  retentionDays: z
    .number({ error: 'retentionDays must be a number of days or null' })
    .int('retentionDays must be a whole number')
    .min(30, 'retentionDays must be at least 30')
    .max(3650, 'retentionDays must be at most 3650')
    .nullable(),
});

const joinPolicySchema = z
  .object({
    studentsOwnClassesOnly: z
      .boolean()
      .describe("True: the district's students cannot join another district's (or a teacher's own) class by code"),
  })
  .meta({ id: 'ClassJoinPolicy' });

const joinPolicyBody = z.object({
  studentsOwnClassesOnly: z.boolean({ error: 'studentsOwnClassesOnly must be true or false' }),
});

const deletionBody = z.object({
  confirmName: z
    .string({ error: 'Type the district name to confirm' })
    .min(1, 'Type the district name to confirm')
    .max(300, 'confirmName must be at most 300 characters'),
});

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * An ISO date-time, passed on in UTC: Postgres refuses offsets beyond ±15:59 that ISO allows
 * (e.g. +21:54), and an offset can carry a year-9999 time past the years it reads.
 */
const isoTime = (name: string) => {
  const message = `${name} must be an ISO date-time`;
  return z.iso.datetime({ offset: true, error: message }).transform((value, ctx) => {
    const at = new Date(value);
    const year = at.getUTCFullYear();
    if (Number.isNaN(at.getTime()) || year < 1 || year > 9999) {
      ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    }
    return at.toISOString();
  });
};

const auditQuery = z.object({
  actor: z.string().regex(UUID_PATTERN, 'actor must be a user id').optional(),
  target: z.string().max(100, 'target must be at most 100 characters').optional(),
  person: z
    .string()
    .max(200, 'person must be at most 200 characters')
    .optional()
    .describe('A person as actor or subject: a user id, or part of a name or an email address'),
  action: z
    .enum(['read', 'change', 'export', 'delete'], { error: 'action must be read, change, export or delete' })
    .optional(),
  from: isoTime('from').optional(),
  to: isoTime('to').optional(),
  cursor: z.string().max(200, 'cursor must be at most 200 characters').optional(),
  limit: z.coerce
    .number({ error: 'limit must be a number' })
    .int('limit must be a whole number')
    .min(1, 'limit must be at least 1')
    .max(200, 'limit must be at most 200')
    .optional(),
});

const auditEntry = z
  .object({
    id: z.string(),
    at: z.string(),
    actorId: z.string().nullable(),
    actorName: z.string().nullable(),
    actorRole: z.string(),
    action: z.string(),
    resource: z.string().describe('Method and route template'),
    targetIds: z.array(z.string()).describe('Ids the call named; a deleted person’s as erased:<hash>'),
    requestId: z.string().nullable(),
    clientAddress: z.string().nullable(),
    service: z.string(),
    event: z
      .string()
      .nullable()
      .describe('invitation.sent, invitation.accepted, invitation.revoked, roster.applied; null for a route'),
    details: z.record(z.string(), z.unknown()).describe('The facts of the event: an address, a role, counts'),
    summary: z.string().describe('Who did what to whom, in names as they are now'),
  })
  .meta({ id: 'AuditEntry' });

const exportFormat = z.object({
  format: z
    .enum(['json', 'csv', 'html', 'zip'], { error: 'format must be json, csv, html or zip' })
    .optional()
    .describe('json (default), csv, html (the document a parent can read) or zip (the document with json and csv)'),
});

function actorOf(caller: Caller, req: Request): PrivacyActor {
  return {
    userId: caller.userId,
    role: caller.role,
    tenantId: caller.tenantId,
    requestId: peerClaims(req)?.requestId,
    clientAddress: clientAddress(req),
  };
}

export function privacyRouter(deps: { pool: pg.Pool; source: string }): ApiRouter {
  const api = new ApiRouter();
  const uc = privacyUseCases(deps);

  api.add(
    {
      method: 'post',
      path: '/api/district/students/:id/exports',
      summary: "Export everything the services hold about a student of the caller's district",
      access: ADMIN,
      params: studentParams,
      status: 202,
      response: requestStatus,
      errors: [404],
    },
    ({ caller, params, req }) => uc.requestExport(actorOf(caller, req), params.id),
  );

  api.add(
    {
      method: 'get',
      path: '/api/district/students/:id/exports/:requestId',
      summary: 'Status of a student export: which services answered',
      access: ADMIN,
      params: requestParams,
      response: requestStatus,
      errors: [404],
    },
    ({ caller, params }) => uc.exportStatus(caller.tenantId, params.id, params.requestId),
  );

  api.add(
    {
      method: 'get',
      path: '/api/district/students/:id/exports/:requestId/download',
      summary:
        'Download a complete student export: JSON (per service, per table, rows), CSV (long form), HTML (a document a parent can read) or a zip of the three, named for the student',
      access: ADMIN,
      params: requestParams,
      query: exportFormat,
      produces: ['application/json', 'text/csv', 'text/html', 'application/zip'],
      errors: [404, 409],
    },
    async ({ caller, params, query, req, res }) => {
      const doc = await uc.exportDocument(caller.tenantId, params.id, params.requestId);
      // The student's whole data leaves: the audit log files it under them.
      await uc.recordExportDownload(actorOf(caller, req), doc.studentId, params.requestId);
      const name = exportFileName(doc);
      const attachment = (file: string) => res.setHeader('Content-Disposition', `attachment; filename="${file}"`);
      res.setHeader('Cache-Control', 'no-store');
      if (query.format === 'csv') {
        res.setHeader('Content-Type', 'text/csv; charset=utf-8');
        attachment(`${name}.csv`);
        res.send(exportCsv(doc));
        return;
      }
      if (query.format === 'html' || query.format === 'zip') {
        const html = exportHtml(doc, (await uc.retention(caller.tenantId)).districtName);
        if (query.format === 'html') {
          res.setHeader('Content-Type', 'text/html; charset=utf-8');
          // Shown as a document, never run: no script, no outside resource.
          res.setHeader('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox");
          attachment(`${name}.html`);
          res.send(html);
          return;
        }
        res.setHeader('Content-Type', 'application/zip');
        attachment(`${name}.zip`);
        res.send(
          Buffer.from(
            zipSync({
              [`${name}/${name}.html`]: strToU8(html),
              [`${name}/${name}.json`]: strToU8(JSON.stringify(doc, null, 2)),
              [`${name}/${name}.csv`]: strToU8(exportCsv(doc)),
            }),
          ),
        );
        return;
      }
      attachment(`${name}.json`);
      res.status(200).json(doc);
    },
  );

  api.add(
    {
      method: 'delete',
      path: '/api/district/students/:id',
      summary: "Delete a student of the caller's district and every row about them in every service",
      access: ADMIN,
      params: studentParams,
      status: 202,
      response: requestStatus,
      errors: [404],
    },
    ({ caller, params, req }) => uc.deleteStudent(actorOf(caller, req), params.id),
  );

  api.add(
    {
      method: 'get',
      path: '/api/district/privacy/requests/:requestId',
      summary: 'Status of a privacy request of the district (export or deletion): "deleted in n of 5 services"',
      access: ADMIN,
      params: z.object({ requestId: z.string().max(100) }),
      response: requestStatus,
      errors: [404],
    },
    ({ caller, params }) => uc.status(caller.tenantId, params.requestId),
  );

  api.add(
    {
      method: 'post',
      path: '/api/district/deletion',
      summary:
        "Delete the caller's whole district (all accounts and data in every service); confirmName must be its name",
      access: ADMIN,
      body: deletionBody,
      status: 202,
      response: requestStatus.extend({ tenantName: z.string() }),
      errors: [404],
    },
    ({ caller, body }) => uc.deleteTenant(caller.tenantId, body.confirmName),
  );

  api.add(
    {
      method: 'get',
      path: '/api/district/privacy',
      summary: "The district's privacy settings (retention period)",
      access: ADMIN,
      response: retentionSchema,
      errors: [404],
    },
    ({ caller }) => uc.retention(caller.tenantId),
  );

  api.add(
    {
      method: 'put',
      path: '/api/district/privacy',
      summary: 'Set how long student activity is kept (30–3650 days, or null to keep it)',
      access: ADMIN,
      body: retentionBody,
      response: retentionSchema,
      errors: [404],
    },
    ({ caller, body, req }) => uc.setRetention(actorOf(caller, req), body.retentionDays),
  );

  api.add(
    {
      method: 'get',
      path: '/api/district/class-joins',
      summary: "Whether the district's students may join only the district's own classes",
      access: ADMIN,
      response: joinPolicySchema,
      errors: [404],
    },
    ({ caller }) => uc.joinPolicy(caller.tenantId),
  );

  api.add(
    {
      method: 'put',
      path: '/api/district/class-joins',
      summary: "Keep the district's students to its own classes (true) or let them join others by code (false)",
      access: ADMIN,
      body: joinPolicyBody,
      response: joinPolicySchema,
      errors: [404],
    },
    ({ caller, body, req }) => uc.setJoinPolicy(actorOf(caller, req), body.studentsOwnClassesOnly),
  );

  api.add(
    {
      method: 'get',
      path: '/api/district/audit',
      summary: 'Who read or changed student data in the district, newest first (paged by cursor)',
      access: ADMIN,
      query: auditQuery,
      response: z.object({ entries: z.array(auditEntry), nextCursor: z.string().nullable() }),
    },
    ({ caller, query }) => listAudit(deps.pool, caller.tenantId, query),
  );

  api.add(
    {
      method: 'get',
      path: '/api/district/audit/export.csv',
      summary: 'The audit log as CSV (same filters, up to 100,000 entries)',
      access: ADMIN,
      query: auditQuery.omit({ cursor: true, limit: true }),
      produces: ['text/csv'],
    },
    async ({ caller, query, res }) => {
      const { entries } = await listAudit(deps.pool, caller.tenantId, { ...query, limit: AUDIT_EXPORT_MAX });
      const header = [
        'at',
        'summary',
        'actor_id',
        'actor_name',
        'actor_role',
        'action',
        'resource',
        'target_ids',
        'request_id',
        'client_address',
        'service',
        'event',
        'details',
      ];
      const rows = entries.map((e) => [
        e.at,
        e.summary,
        e.actorId,
        e.actorName,
        e.actorRole,
        e.action,
        e.resource,
        e.targetIds.join(' '),
        e.requestId,
        e.clientAddress,
        e.service,
        e.event,
        JSON.stringify(e.details),
      ]);
      res.setHeader('Content-Type', 'text/csv; charset=utf-8');
      res.setHeader('Content-Disposition', 'attachment; filename="audit-log.csv"');
      res.setHeader('Cache-Control', 'no-store');
      res.send(csvText([header, ...rows]));
    },
  );

  return api;
}
