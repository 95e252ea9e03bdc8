import { describe, inject } from 'vitest';
import type { Engine } from '../../src/server/db/engine';

/**
 * Declares a suite once per engine: `name (sqlite)` always, `name (postgres)` when the global
 * setup has a PostgreSQL (test/helpers/postgres/global-setup.ts says in one line when it has
 * not, and fails under CI). The body passes `engine` on to createTestService/signedInService.
 */
export function describeEngines(name: string, body: (engine: Engine) => void): void {
  describe(`${name} (sqlite)`, () => body('sqlite'));
  describe.skipIf(!inject('postgres'))(`${name} (postgres)`, () => body('postgres'));
}
