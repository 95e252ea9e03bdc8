/**
 * A polled file this connection has dealt with before, decided from stored rows: the same file
 * name from a polled source (folder or SFTP) and byte-identical text, taken in in any form
 * (accepted, partial, rejected, duplicate) or refused. Such a file is one whose move out of the
 * inbound directory failed before a restart (the in-memory note of ./inbound-unmoved.ts is gone):
 * the poller only moves it (archive/, or error/ with the stored reason) and writes nothing, so
 * the retailer gets no second 997 (docs/decisions, "A polled file seen before is only moved").
 * A file too large to take in keeps no text; it is known by name and size.
 * The lookup goes by (connection_id, file_name) through the index edi_interchanges_polled_file
 * (migration 0022), and only then compares the text; it never reads a stored text back.
 */
import type { Db } from '../db/db';
import type { StoredSummary } from './inbox-reasons';
import type { UnmovedFile, PolledFileIdentity } from './inbound-unmoved';
import { storedTooLargeReason } from './inbound-too-large';

/** The polled rows of a connection with this file name and this stored text, newest first. */
export function polledRowsQuery(db: Db, connectionId: string, fileName: string, raw: string) {
  return db
    .selectFrom('edi_interchanges')
    .where('connection_id', '=', connectionId)
    .where('file_name', '=', fileName)
    .where('source', 'in', ['file', 'sftp'])
    .where('raw', '=', raw)
    .select(['outcome', 'summary_json'])
    .orderBy('received_at', 'desc');
}

/** Where the file goes when it was dealt with before; null when it is new. */
export async function storedPolledFile(
  db: Db,
  connectionId: string,
  fileName: string,
  identity: PolledFileIdentity,
): Promise<UnmovedFile | null> {
  // A file too large to take in was stored with an empty text and its size in the summary.
  const raw = 'text' in identity ? identity.text : '';
  for (const row of await polledRowsQuery(db, connectionId, fileName, raw).execute()) {
    const summary = parseSummary(row.summary_json);
    const tooLarge = row.outcome === 'refused' && summary.refusal === 'too_large';
    if ('text' in identity ? tooLarge : !tooLarge || summary.bytes !== identity.tooLargeBytes) {
      continue;
    }
    if (row.outcome !== 'refused') return { sub: 'archive', reason: null };
    return { sub: 'error', reason: storedReason(summary) };
  }
  return null;
}

function storedReason(summary: StoredSummary): string {
  if (summary.refusal === 'too_large') return storedTooLargeReason(summary);
  return summary.refused ?? 'The file was refused';
}

function parseSummary(json: string): StoredSummary {
  try {
    return JSON.parse(json) as StoredSummary;
  } catch {
    return {};
  }
}
