import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { migrateCentral, MigrateCentralError, summaryLines } from '../db/migrate-central';

const USAGE = `usage: npm run migrate-central -- --from DATA_DIR --database-url postgres://USER@HOST:PORT/DB
Copies a stopped SQLite central (its data dir) into an empty PostgreSQL database
(docs/operations.md, "Moving a central to PostgreSQL"). DATABASE_URL may stand for --database-url.`;

class UsageError extends Error {}

function parseFlags(argv: string[], env: NodeJS.ProcessEnv) {
  let values: { from?: string; 'database-url'?: string };
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: { from: { type: 'string' }, 'database-url': { type: 'string' } },
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const databaseUrl = values['database-url'] ?? (env.DATABASE_URL || undefined);
  if (!values.from) throw new UsageError('--from DATA_DIR is required');
  if (!databaseUrl) throw new UsageError('--database-url (or DATABASE_URL) is required');
  let protocol = '';
  try {
    protocol = new URL(databaseUrl).protocol;
  } catch {
    // reported below, without echoing a URL that may hold a password
  }
  if (protocol !== 'postgres:' && protocol !== 'postgresql:') {
    throw new UsageError('--database-url must be a postgres:// URL');
  }
  return { from: resolve(values.from), databaseUrl };
}

async function main(): Promise<void> {
  const { from, databaseUrl } = parseFlags(process.argv.slice(2), process.env);
  const summary = await migrateCentral({ from, databaseUrl, log: (line) => console.log(line) });
  for (const line of summaryLines(summary, from)) console.log(line);
}

main().catch((error: unknown) => {
  if (error instanceof UsageError) console.error(`${error.message}\n${USAGE}`);
  else if (error instanceof MigrateCentralError) console.error(`migrate-central: ${error.message}`);
  else console.error(error);
  process.exit(error instanceof UsageError ? 2 : 1);
});
