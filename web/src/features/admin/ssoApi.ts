// The district's SSO settings (identity's /api/district/sso): its OpenID Connect connection and
// whether password sign-in stays on. The client secret is only ever sent, never read back.
// Endpoints and types are generated from the gateway's OpenAPI document (api/generated).
import { generatedApi } from '../../api/generated/endpoints';
import type { SaveSsoConnectionApiArg, SsoSettings } from '../../api/generated/endpoints';

export type { SsoSettings };
export type SsoConnection = NonNullable<SsoSettings['connection']>;
/** clientSecret empty: keep the stored secret. */
export type SsoConnectionInput = SaveSsoConnectionApiArg;

export const ssoSettingsApi = generatedApi.enhanceEndpoints({
  addTagTypes: ['SsoSettings', 'District'],
  endpoints: {
    getSsoSettings: { providesTags: ['SsoSettings'] },
    saveSsoConnection: { invalidatesTags: ['SsoSettings', 'District'] },
    removeSsoConnection: { invalidatesTags: ['SsoSettings', 'District'] },
    setPasswordSignIn: { invalidatesTags: ['SsoSettings', 'District'] },
  },
});

export const {
  useGetSsoSettingsQuery,
  useSaveSsoConnectionMutation,
  useRemoveSsoConnectionMutation,
  useSetPasswordSignInMutation,
} = ssoSettingsApi;
