export { createIdentity, type Identity, ACCESS_TOKEN_TTL_SECONDS, WEB_SCOPES } from './provider.ts';
export { identityRoutes, IDP_PREFIX } from './routes.ts';
export { addSigningKey, promoteNewestSigningKey, retireSigningKeys } from './keys.ts';
