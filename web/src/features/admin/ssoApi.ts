// The district's SSO settings (identity's /api/district/sso): its OpenID Connect connection and
// whether password sign-in stays on. The client secret is only ever sent, never read back.
import { apiSlice } from '../../api/apiSlice';

export interface SsoConnection {
  id: string;
  issuer: string;
  kind: 'google' | 'entra' | 'generic';
  clientId: string;
  hasSecret: boolean;
  emailDomains: string[];
  displayName: string;
  enabled: boolean;
  updatedAt: string;
  initiateLoginUri: string;
}

export interface SsoSettings {
  connection: SsoConnection | null;
  passwordSignIn: boolean;
  districtDomains: string[];
  redirectUri: string;
}

export interface SsoConnectionInput {
  issuer: string;
  clientId: string;
  /** Empty: keep the stored secret. */
  clientSecret?: string;
  emailDomains: string[];
  displayName?: string;
  enabled: boolean;
}

const tagged = apiSlice.enhanceEndpoints({ addTagTypes: ['SsoSettings', 'District'] });

export const ssoSettingsApi = tagged.injectEndpoints({
  endpoints: (build) => ({
    getSsoSettings: build.query<SsoSettings, void>({
      query: () => '/api/district/sso',
      providesTags: ['SsoSettings'],
    }),
    saveSsoConnection: build.mutation<SsoSettings, SsoConnectionInput>({
      query: (body) => ({ url: '/api/district/sso', method: 'PUT', body }),
      invalidatesTags: ['SsoSettings', 'District'],
    }),
    removeSsoConnection: build.mutation<null, void>({
      query: () => ({ url: '/api/district/sso', method: 'DELETE' }),
      invalidatesTags: ['SsoSettings', 'District'],
    }),
    setPasswordSignIn: build.mutation<SsoSettings, boolean>({
      query: (passwordSignIn) => ({
        url: '/api/district/sso/password-sign-in',
        method: 'PUT',
        body: { passwordSignIn },
      }),
      invalidatesTags: ['SsoSettings', 'District'],
    }),
  }),
});

export const {
  useGetSsoSettingsQuery,
  useSaveSsoConnectionMutation,
  useRemoveSsoConnectionMutation,
  useSetPasswordSignInMutation,
} = ssoSettingsApi;
