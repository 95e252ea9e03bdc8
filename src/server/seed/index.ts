/** What other features may use of seed: they import it from here, never from its files (ARCHITECTURE.md). */
export {
  DEMO_EMAIL,
  DEMO_PASSWORD,
  demoSignInUnchanged,
  importDemoWorkspace,
  importDemoWorkspaceWithDocuments,
} from './demo';
export { SeedError, importSeedBundle } from './seed';
