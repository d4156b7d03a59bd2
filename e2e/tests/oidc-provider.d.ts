// oidc-provider ships no type declarations; sso.spec.ts runs a local provider with a small part of it.
declare module 'oidc-provider';
