export {
  createIdentity,
  type Identity,
  type IdentityOptions,
  ACCESS_TOKEN_TTL_SECONDS,
  WEB_SCOPES,
} from './provider.ts';
export { identityRoutes, IDP_PREFIX } from './routes.ts';
export { addSigningKey, loadIdentityKeys, promoteNewestSigningKey, retireSigningKeys } from './keys.ts';
export { endAccountSessions, identityUserData } from './user-data.ts';
