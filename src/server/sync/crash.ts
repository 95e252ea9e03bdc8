/**
 * Named points where a test kills this process (`SYNC_CRASH_AT=<point>`), to prove that sync
 * recovers from a crash there: before_push, after_server_commit (central, after the push's
 * commit, before its answer), between_push_commits (central, a push of several transactions
 * after one committed), after_push_answer (before acked_seq is stored), mid_pull (between
 * two pages).
 */
export type CrashPoint =
  'before_push' | 'after_server_commit' | 'between_push_commits' | 'after_push_answer' | 'mid_pull';

export function crashPoint(point: CrashPoint): void {
  if (process.env.SYNC_CRASH_AT === point) process.kill(process.pid, 'SIGKILL');
}
