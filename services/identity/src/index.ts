export { identityService } from './service.ts';
export { identityConfigSchema, type IdentityConfig } from './config.ts';
export { ACCESS_TOKEN_AUDIENCE, ACCESS_TOKEN_ISSUER } from './domain/access-token.ts';
export { dataDirSecretsKey } from './cli/secrets-key-file.ts';
export { DEMO_CLASSMATES, DEMO_DOMAIN } from './domain/demo-seed.use-case.ts';
