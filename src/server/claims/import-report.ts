import { CLAIM_LIMITS, type ImportProblem } from '../../shared/claims';
import { invalidRequest } from '../core/errors';

/**
 * Refuses a file with problems: 400 naming how many rows were rejected, `error.errors` listing
 * each problem (row, column, reason) in row order, at most CLAIM_LIMITS.reportedProblems of them.
 */
export function refuseFile(problems: ImportProblem[]): never {
  const sorted = [...problems].sort((a, b) => a.row - b.row);
  const rows = new Set(sorted.map((problem) => problem.row)).size;
  throw invalidRequest(
    `CSV file rejected: ${rows} row${rows === 1 ? '' : 's'} with problems; nothing was imported`,
    {
      errors: sorted.slice(0, CLAIM_LIMITS.reportedProblems),
      ...(sorted.length > CLAIM_LIMITS.reportedProblems ? { truncated: true } : {}),
    },
  );
}

/** The first row of each natural key; a later row with the same key is a problem. */
export function flagDuplicates(
  rows: readonly { row: number; key: string }[],
  describe: string,
  problems: ImportProblem[],
): void {
  const first = new Map<string, number>();
  for (const { row, key } of rows) {
    const earlier = first.get(key);
    if (earlier === undefined) first.set(key, row);
    else problems.push({ row, column: '', reason: `repeats row ${earlier} (same ${describe})` });
  }
}
