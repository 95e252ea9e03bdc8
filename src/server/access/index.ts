/** What other features may use of access: they import it from here, never from its files (ARCHITECTURE.md). */
export { SIGN_IN_THROTTLE, tooManyAttempts } from './auth';
export { authUserById, cachedAuthData } from './auth-cache';
export {
  adminBrandOrganizations,
  brandWorksAt,
  findBrand,
  hasAdminGrant,
  hasAdminGrantInOrganization,
} from './grants';
export { isInstallAdmin, requireInstallAdmin } from './install-admin';
export {
  findVisibleFacility,
  listVisibleFacilities,
  visibleFacilitiesQuery,
} from './lookup-queries';
export { facilitiesOf } from './lookups';
export {
  PASSWORD_COST,
  dummyPasswordHash,
  hashPassword,
  needsRehash,
  verifyPassword,
  type PasswordCost,
} from './passwords';
export { admitSignInAttempt, clearSignInAttempts } from './sign-in-throttle';
export { loadOrCreateSharedSecret } from './shared-secret';
export { loadOrCreateSecret, verifyAccessToken } from './tokens';
export { verifyOnce } from './verified-once';
