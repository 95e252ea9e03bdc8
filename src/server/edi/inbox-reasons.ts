/**
 * Why an inbound interchange was refused or rejected, in clerk words (no raw X12 codes): what
 * the stored run says, with the segment and document each fault is in.
 */
import type { SetSummary } from './ingest-sets';
import type { RefusalKind } from './ingest-refusal';
import { storedTooLargeReason } from './inbound-too-large';
import type { InterchangeOutcome } from './tables';

/** What ./ingest.ts and ./ingest-refusal.ts store as an interchange's summary_json. */
export interface StoredSummary {
  transaction_sets?: SetSummary[];
  /** Faults of the interchange envelope. */
  errors?: string[];
  refused?: string | null;
  refusal?: RefusalKind | null;
  /** Per set (in order), where its faults are. */
  located?: { segment: string; position: number; message: string }[][];
  reprocessed_at?: string;
  /** A file refused as too large: its size, the limit then, and whether it was read at all. */
  bytes?: number;
  max_bytes?: number;
  unread?: boolean;
}

export interface ReasonInput {
  outcome: InterchangeOutcome;
  sender_id: string;
  receiver_id: string;
  /** The connection's `edi_json` now (its identities), when it is known. */
  connection_edi_json: string | null;
}

/** Lines of a long reason kept; the rest are counted. */
const MAX_LINES = 12;

export function clerkReason(row: ReasonInput, summary: StoredSummary): string | null {
  if (row.outcome === 'refused') return refusalReason(row, summary);
  if (row.outcome !== 'rejected' && row.outcome !== 'partial') return null;
  const lines = (summary.errors ?? []).map((error) => `The file: ${lowerFirst(error)}`);
  (summary.transaction_sets ?? []).forEach((set, index) => {
    if (set.status !== 'rejected') return;
    const document = documentName(set);
    const located = summary.located?.[index] ?? [];
    const errors = set.errors.length > 0 ? set.errors : ['it could not be read'];
    for (const error of errors) {
      const where = located.find((fault) => fault.message === error && fault.position > 0);
      lines.push(
        where
          ? `Segment ${where.position} (${where.segment}) of ${document}: ${lowerFirst(error)}`
          : `${upperFirst(document)}: ${lowerFirst(error)}`,
      );
    }
  });
  const unique = [...new Set(lines)];
  if (unique.length === 0) return null;
  const kept = unique.slice(0, MAX_LINES);
  if (unique.length > MAX_LINES) kept.push(`… and ${unique.length - MAX_LINES} more`);
  return kept.join('\n');
}

function refusalReason(row: ReasonInput, summary: StoredSummary): string {
  switch (summary.refusal) {
    case 'empty':
      return 'The file is empty';
    case 'not_x12':
      return 'This file is not an X12 interchange (it must begin with an ISA segment)';
    case 'no_group':
      return 'The file holds no documents: there is no functional group (GS) in it';
    case 'addressee':
      return addresseeReason(row);
    case 'too_large':
      return storedTooLargeReason(summary);
    default:
      return summary.refused ?? 'The file was refused';
  }
}

function addresseeReason(row: ReasonInput): string {
  const edi = parseIdentities(row.connection_edi_json);
  if (edi && row.receiver_id !== edi.sender_id) {
    return (
      `It is addressed to another company (receiver ID ${row.receiver_id}); this connection ` +
      `takes files addressed to ${edi.sender_id}`
    );
  }
  if (edi && row.sender_id !== edi.receiver_id) {
    return (
      `It comes from a sender this connection does not know (sender ID ${row.sender_id}); ` +
      `this connection takes files from ${edi.receiver_id}`
    );
  }
  return (
    `No EDI connection took files from ${row.sender_id || '(none)'} to ` +
    `${row.receiver_id || '(none)'} when it came in; reprocess it to try again`
  );
}

function parseIdentities(json: string | null): { sender_id: string; receiver_id: string } | null {
  if (!json) return null;
  try {
    const edi = JSON.parse(json) as { sender_id?: unknown; receiver_id?: unknown };
    return typeof edi.sender_id === 'string' && typeof edi.receiver_id === 'string'
      ? { sender_id: edi.sender_id, receiver_id: edi.receiver_id }
      : null;
  } catch {
    return null;
  }
}

function documentName(set: SetSummary): string {
  const po = set.po_number ? ` ${set.po_number}` : '';
  switch (set.type) {
    case '850':
      return `the purchase order${po}`;
    case '860':
      return `the purchase order change${po}`;
    case '997':
      return `the acknowledgment ${set.control_number}`;
    default:
      return `transaction set ${set.type || '?'} ${set.control_number}`;
  }
}

/** "The quantity …" → "the quantity …"; codes and names ("BEG01 …", "PO 45…") stay as they are. */
function lowerFirst(text: string): string {
  return /^[A-Z][a-z]/.test(text) ? text[0]!.toLowerCase() + text.slice(1) : text;
}

function upperFirst(text: string): string {
  return text[0]!.toUpperCase() + text.slice(1);
}
