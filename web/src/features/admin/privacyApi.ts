// Privacy operations (identity's /api/district/privacy, /students/{id}/exports, /audit; docs/adr/009).
// Endpoints and types are generated from the gateway's OpenAPI document (api/generated); this file
// adds their cache tags and the audit filters' form.
import { generatedApi } from '../../api/generated/endpoints';
import type { AuditEntry, GetAuditApiArg, PrivacyRequestStatus, PrivacySettings } from '../../api/generated/endpoints';

export type { AuditEntry, PrivacyRequestStatus, PrivacySettings };

/** The audit filters as the form holds them ('' action: any; from/to as the date inputs give them). */
export type AuditFilter = Omit<GetAuditApiArg, 'action' | 'limit'> & { action?: GetAuditApiArg['action'] | '' };

/** The audit filters that are set, as the API takes them. */
export function auditArg(f: AuditFilter): GetAuditApiArg {
  const arg: GetAuditApiArg = {};
  if (f.actor?.trim()) arg.actor = f.actor.trim();
  if (f.target?.trim()) arg.target = f.target.trim();
  if (f.person?.trim()) arg.person = f.person.trim();
  if (f.action) arg.action = f.action;
  if (f.from) arg.from = new Date(f.from).toISOString();
  if (f.to) arg.to = new Date(f.to).toISOString();
  if (f.cursor) arg.cursor = f.cursor;
  return arg;
}

/** The query string of the audit filters that are set (shared by the list and the CSV link). */
export function auditQuery(f: AuditFilter): string {
  return new URLSearchParams(auditArg(f) as Record<string, string>).toString();
}

export const privacyApi = generatedApi.enhanceEndpoints({
  addTagTypes: ['Privacy', 'ClassJoins', 'Audit', 'DistrictUsers', 'District'],
  endpoints: {
    getPrivacySettings: { providesTags: ['Privacy'] },
    setRetention: { invalidatesTags: ['Privacy', 'Audit'] },
    getClassJoinPolicy: { providesTags: ['ClassJoins'] },
    setClassJoinPolicy: { invalidatesTags: ['ClassJoins', 'Audit'] },
    requestExport: { invalidatesTags: ['Audit'] },
    // The student is gone from identity at once: every list of the district's people and its counts
    // read again (the other services follow by event).
    deleteStudent: { invalidatesTags: ['Audit', 'DistrictUsers', 'District'] },
    getAudit: { providesTags: ['Audit'] },
  },
});

export const {
  useGetPrivacySettingsQuery,
  useSetRetentionMutation,
  useGetClassJoinPolicyQuery,
  useSetClassJoinPolicyMutation,
  useRequestExportMutation,
  useDeleteStudentMutation,
  useGetRequestStatusQuery,
  useDeleteDistrictMutation,
  useGetAuditQuery,
} = privacyApi;
