import type { TestProject } from 'vitest/node';
import { migratePostgres } from '../../../src/server/db/postgres/open';
import { serverBinaries, startCluster, type ThrowawayCluster } from './cluster';
import { createTemplate, onAdmin, type PostgresForTests } from './databases';

/**
 * Vitest global setup: gives the test files a PostgreSQL to clone databases from. DATABASE_URL
 * (a role that may create databases) wins; otherwise a throwaway cluster starts when Debian's
 * server is installed. Without either the PostgreSQL half of the engine tests is skipped, said in
 * one line, except under CI=true, where it fails (issue 17: CI never skips them).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const started = Date.now();
  let cluster: ThrowawayCluster | null = null;
  let adminUrl = process.env.DATABASE_URL || null;
  // Test files get it through inject('postgres'); services they spawn (the CLI, crash tests)
  // must not inherit it and run on that server's `postgres` database.
  delete process.env.DATABASE_URL;
  if (!adminUrl) {
    const bin = serverBinaries();
    if (!bin) {
      const why =
        'PostgreSQL tests skipped: no DATABASE_URL and no server in /usr/lib/postgresql ' +
        '(apt-get install postgresql, or set DATABASE_URL=postgres://USER@HOST:PORT/postgres)';
      if (process.env.CI && process.env.CI !== 'false') throw new Error(`${why}; CI must run them`);
      console.log(why);
      project.provide('postgres', null);
      return async () => {};
    }
    cluster = await startCluster(bin);
    adminUrl = cluster.adminUrl;
  }
  const stopOnSignal = (signal: NodeJS.Signals) => {
    cluster?.stop();
    process.kill(process.pid, signal);
  };
  // Whichever way the run ends: a signal, or an exit without teardown (a closed stdout pipe).
  const stopOnExit = () => cluster?.stop();
  if (cluster) {
    process.once('SIGINT', stopOnSignal);
    process.once('SIGTERM', stopOnSignal);
    process.once('SIGHUP', stopOnSignal);
    process.once('exit', stopOnExit);
  }
  const clusterMs = Date.now() - started;
  const template = `app_template_${process.pid}`;
  try {
    await migratePostgres(await createTemplate(adminUrl, template));
  } catch (error) {
    cluster?.stop();
    throw error;
  }
  const postgres: PostgresForTests = { adminUrl, template };
  project.provide('postgres', postgres);
  if (process.env.PG_TEST_TIMINGS) {
    console.log(
      `PostgreSQL for tests: cluster ${clusterMs} ms, migrated template ${Date.now() - started - clusterMs} ms`,
    );
  }
  return async () => {
    process.off('SIGINT', stopOnSignal);
    process.off('SIGTERM', stopOnSignal);
    process.off('SIGHUP', stopOnSignal);
    process.off('exit', stopOnExit);
    if (cluster) cluster.stop();
    else await onAdmin(adminUrl, [`DROP DATABASE IF EXISTS ${template} WITH (FORCE)`]);
  };
}
