/** What other features may use of claims: they import it from here, never from its files (ARCHITECTURE.md). */
export { importSeedChargebacks, importSeedPosReports } from './seed';
