/** The access feature's routes: sign-in (token) and the lookups of facilities, brands and retailers. */
export { authRoutes } from './auth-routes';
export { lookupRoutes } from './lookup-routes';
