/** What other features may use of sync: they import it from here, never from its files (ARCHITECTURE.md). */
export { SyncSetupError, WORKSTATION_NOT_ON_POSTGRES, type SyncSettings } from './install';
export { hashSeedDevices, importSeedDevices } from './seed-devices';
export { installConfiguredSync, installConfiguredSyncOnPostgres } from './settings';
export { sealStoredSyncSecret, syncSettingsPath } from './stored-settings';
