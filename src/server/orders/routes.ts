/** The orders feature's routes: bills of lading, writes (create, update, move) and reads. */
export { orderBolRoutes } from './bol-routes';
export { orderReadRoutes } from './read-routes';
export { orderWriteRoutes } from './write-routes';
