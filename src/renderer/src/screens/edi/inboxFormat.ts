import type { InterchangeSummaryView } from '../../../../shared/edi-inbound';
import type { InterchangeItem, InterchangeOutcomeValue } from '../../../../shared/edi-inbox';
import { plural } from '../../format/plural';

/** The words of the EDI inbox: outcomes, sources, set types, and an import's result per file. */

export const OUTCOME_LABELS: Record<InterchangeOutcomeValue, string> = {
  accepted: 'Accepted',
  partial: 'Partly accepted',
  rejected: 'Rejected',
  duplicate: 'Duplicate',
  refused: 'Refused',
};

export const SOURCE_LABELS: Record<InterchangeItem['source'], string> = {
  http: 'Posted',
  file: 'Folder',
  sftp: 'SFTP',
};

const SET_NAMES: Record<string, string> = {
  '850': 'Purchase order (850)',
  '860': 'PO change (860)',
  '997': 'Acknowledgment (997)',
};

export const setName = (type: string) => SET_NAMES[type] ?? `Set ${type || '?'}`;

/**
 * Interchanges a clerk may run again (after fixing an item, a facility code or the connection):
 * refused, rejected or partly taken in, and with their text kept (a file refused as too large
 * was never kept, so there is nothing to run).
 */
export const canReprocess = (item: Pick<InterchangeItem, 'outcome' | 'content_kept'>) =>
  item.content_kept &&
  (item.outcome === 'refused' || item.outcome === 'rejected' || item.outcome === 'partial');

export const IMPORT_EXTENSIONS = ['.edi', '.x12', '.txt'] as const;

/** Null when the file may be imported; else why not, next to the field. */
export function importRefusal(fileName: string): string | null {
  const lower = fileName.toLowerCase();
  if (IMPORT_EXTENSIONS.some((extension) => lower.endsWith(extension))) return null;
  return `${fileName} was not imported: only .edi, .x12 and .txt files hold purchase orders.`;
}

/** How far an import of several files is, then what it came to. */
export function importProgress(done: number, total: number, refused: number): string {
  if (done < total) return `Importing file ${done + 1} of ${total}…`;
  const files = plural(total, 'file');
  return refused === 0
    ? `Imported ${files}.`
    : `Done: ${files}, ${refused} refused. Each file’s line below says what it did.`;
}

/** What one imported file did, in a line: orders created, duplicates, rejected sets. */
export function importResult(summary: InterchangeSummaryView): string {
  if (summary.duplicate) {
    return 'Duplicate: this interchange was received before, so nothing was taken in again.';
  }
  const sets = summary.transaction_sets;
  const created = sets.filter(
    (set) => set.type === '850' && set.status === 'accepted' && set.order_id !== null,
  ).length;
  const changed = sets.filter((set) => set.type === '860' && set.status === 'accepted').length;
  const duplicates = sets.filter((set) => set.status === 'duplicate').length;
  const rejected = sets.filter((set) => set.status === 'rejected');
  const parts = [`${plural(created, 'order')} created`];
  if (changed > 0) parts.push(`${plural(changed, 'change')} applied`);
  if (duplicates > 0) parts.push(`${duplicates} duplicate`);
  if (rejected.length > 0) {
    const first = rejected[0]!;
    parts.push(
      `${rejected.length} rejected (${first.po_number ? `PO ${first.po_number}: ` : ''}${first.errors[0] ?? 'unreadable'})`,
    );
  }
  return `${parts.join(', ')}.`;
}

/** The sets of an interchange in a few words for the table. */
export function setsSummary(item: InterchangeItem): string {
  if (item.sets.length === 0) return 'No sets';
  const counts = new Map<string, number>();
  for (const set of item.sets) counts.set(set.type, (counts.get(set.type) ?? 0) + 1);
  return [...counts].map(([type, n]) => `${n} × ${type}`).join(', ');
}
