// Privacy operations (identity's /api/district/privacy, /students/{id}/exports, /audit; docs/adr/009).
import { apiSlice } from '../../api/apiSlice';

export interface PrivacySettings {
  retentionDays: number | null;
  districtName: string;
}

export interface PrivacyRequestStatus {
  requestId: string;
  kind: 'export' | 'delete_user' | 'delete_tenant';
  createdAt: string;
  expected: number;
  answered: number;
  complete: boolean;
  services: { service: string; answered: boolean; rows: number | null }[];
}

export interface AuditEntry {
  id: string;
  at: string;
  actorId: string | null;
  actorName: string | null;
  actorRole: string;
  action: 'read' | 'change' | 'export' | 'delete';
  resource: string;
  targetIds: string[];
  requestId: string | null;
  clientAddress: string | null;
  service: string;
}

export interface AuditFilter {
  actor?: string;
  target?: string;
  action?: AuditEntry['action'] | '';
  from?: string;
  to?: string;
  cursor?: string;
}

/** The query string of the audit filters that are set (shared by the list and the CSV link). */
export function auditQuery(f: AuditFilter): string {
  const params = new URLSearchParams();
  if (f.actor?.trim()) params.set('actor', f.actor.trim());
  if (f.target?.trim()) params.set('target', f.target.trim());
  if (f.action) params.set('action', f.action);
  if (f.from) params.set('from', new Date(f.from).toISOString());
  if (f.to) params.set('to', new Date(f.to).toISOString());
  if (f.cursor) params.set('cursor', f.cursor);
  return params.toString();
}

const tagged = apiSlice.enhanceEndpoints({ addTagTypes: ['Privacy', 'Audit'] });

export const privacyApi = tagged.injectEndpoints({
  endpoints: (build) => ({
    getPrivacySettings: build.query<PrivacySettings, void>({
      query: () => '/api/district/privacy',
      providesTags: ['Privacy'],
    }),
    setRetention: build.mutation<PrivacySettings, number | null>({
      query: (retentionDays) => ({ url: '/api/district/privacy', method: 'PUT', body: { retentionDays } }),
      invalidatesTags: ['Privacy', 'Audit'],
    }),
    requestExport: build.mutation<PrivacyRequestStatus, string>({
      query: (studentId) => ({
        url: `/api/district/students/${encodeURIComponent(studentId)}/exports`,
        method: 'POST',
      }),
      invalidatesTags: ['Audit'],
    }),
    deleteStudent: build.mutation<PrivacyRequestStatus, string>({
      query: (studentId) => ({ url: `/api/district/students/${encodeURIComponent(studentId)}`, method: 'DELETE' }),
      invalidatesTags: ['Audit'],
    }),
    getRequestStatus: build.query<PrivacyRequestStatus, string>({
      query: (requestId) => `/api/district/privacy/requests/${encodeURIComponent(requestId)}`,
    }),
    deleteDistrict: build.mutation<PrivacyRequestStatus & { tenantName: string }, string>({
      query: (confirmName) => ({ url: '/api/district/deletion', method: 'POST', body: { confirmName } }),
    }),
    getAudit: build.query<{ entries: AuditEntry[]; nextCursor: string | null }, AuditFilter>({
      query: (f) => {
        const q = auditQuery(f);
        return q ? `/api/district/audit?${q}` : '/api/district/audit';
      },
      providesTags: ['Audit'],
    }),
  }),
});

export const {
  useGetPrivacySettingsQuery,
  useSetRetentionMutation,
  useRequestExportMutation,
  useDeleteStudentMutation,
  useGetRequestStatusQuery,
  useDeleteDistrictMutation,
  useGetAuditQuery,
} = privacyApi;
