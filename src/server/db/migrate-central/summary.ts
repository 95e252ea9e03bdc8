import type { FilesCopied } from './copy-files';

export interface MigrateCentralSummary {
  epoch: string;
  /** Rows per table copied, equal on both sides (checked before COMMIT). */
  tables: { name: string; rows: number }[];
  /** SQLite tables left out, with no PostgreSQL counterpart (search indexes). */
  skipped: string[];
  /** The highest version copied; the version sequence continues after it. */
  lastVersion: number;
  devices: number;
  files: FilesCopied;
  /** Whether the data dir's token signing secret went into the database (service_secrets). */
  signingSecret: boolean;
  seconds: number;
}

/** The lines printed once the copy is committed. */
export function summaryLines(summary: MigrateCentralSummary, from: string): string[] {
  const total = summary.tables.reduce((sum, t) => sum + t.rows, 0);
  const lines = [
    `copied ${total} rows in ${summary.tables.length} tables in ${summary.seconds.toFixed(1)} s; row counts equal on both sides`,
    `epoch ${summary.epoch}, last version ${summary.lastVersion}, ${summary.devices} devices (secrets and last_seq kept)`,
    `left out (search indexes; PostgreSQL searches with pg_trgm): ${summary.skipped.join(', ') || 'none'}`,
  ];
  if (summary.files.intoDatabase) {
    lines.push(`files: ${summary.files.files} (${summary.files.bytes} bytes) into the database`);
    if (summary.files.damaged.length > 0) {
      lines.push(
        `NOT copied, content does not match the name: ${summary.files.damaged.join(', ')}`,
      );
    }
  } else {
    lines.push(`files stay in ${from}/documents: start the PostgreSQL central with this data dir`);
  }
  lines.push(
    summary.signingSecret
      ? 'token signing secret: copied into the database; signed-in users and devices stay signed in'
      : `token signing secret: stays in ${from}/jwt-secret.key; start the PostgreSQL central with this data dir, or users sign in again and devices open new sessions`,
    'next: start the central with --role central --database-url …; never start the SQLite central again (keep its data dir as a backup)',
  );
  return lines;
}
