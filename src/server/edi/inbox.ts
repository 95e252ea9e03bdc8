/**
 * The EDI inbox (issue 16, item 9): the inbound interchanges a clerk may see, one with its
 * readable text, its raw download, and a reprocess through the one ingest path. Who sees one is
 * who may post it: an admin of its connection's brand in its organisation (the same rule as
 * POST /api/v1/edi/inbound); anyone else gets the same 404 as for an unknown id. A polled file
 * refused as too large kept no text: its download and reprocess answer 409.
 */
import type {
  InterchangeDetail,
  InterchangeItem,
  InterchangeListQuery,
  InterchangePage,
} from '../../shared/edi-inbox';
import { adminBrandOrganizations, hasAdminGrantInOrganization } from '../access';
import type { AuthUser, ServiceContext } from '../core/context';
import { conflict, DomainError, notFound } from '../core/errors';
import { clerkReason, type StoredSummary } from './inbox-reasons';
import { findInterchange, listInterchanges, ordersByIds, type InboxRow } from './inbox-queries';
import { ingestInterchange } from './ingest';
import { X12_CONTENT_TYPE } from './x12/writer';

export const INTERCHANGE_NOT_FOUND = 'Interchange not found';
const NOTHING_TO_REPROCESS =
  'This interchange was taken in whole already: there is nothing to reprocess';

export async function listInbox(
  ctx: ServiceContext,
  user: AuthUser,
  query: InterchangeListQuery,
): Promise<InterchangePage> {
  const scopes = await adminBrandOrganizations(ctx.db, user);
  const { rows, total } = await listInterchanges(
    ctx.db,
    scopes,
    { outcome: query.outcome, connectionId: query.connection_id },
    { page: query.page, pageSize: query.page_size },
  );
  return {
    page: query.page,
    page_size: query.page_size,
    total_count: total,
    interchanges: rows.map(itemOf),
  };
}

function itemOf(row: InboxRow): InterchangeItem {
  const summary = parseSummary(row.summary_json);
  return {
    id: row.id,
    received_at: row.received_at,
    source: row.source,
    file_name: row.file_name,
    connection_id: row.connection_id,
    retailer_name: row.retailer_name,
    brand_name: row.brand_name,
    sender: row.sender_id,
    control_number: row.control_number,
    outcome: row.outcome,
    sets: summary.transaction_sets ?? [],
    reason: clerkReason(row, summary),
    reprocessed_at: summary.reprocessed_at ?? null,
    content_kept: contentKept(summary),
  };
}

/** A file refused as too large was stored without its text (./inbound-too-large.ts). */
const contentKept = (summary: StoredSummary) => summary.refusal !== 'too_large';

/** The 409 for a file whose text was never kept: there is nothing to show, download or run. */
function nothingKept(item: InterchangeItem, what: string) {
  return conflict(
    `Nothing of this file was kept, so there is ${what}: ${lowerFirst(item.reason ?? 'it was too large to take in')}`,
  );
}

const lowerFirst = (text: string) => text[0]!.toLowerCase() + text.slice(1);

function parseSummary(json: string): StoredSummary {
  try {
    return JSON.parse(json) as StoredSummary;
  } catch {
    return {};
  }
}

/** The stored interchange, when the caller may see it; else the 404 of an unknown one. */
async function visibleInterchange(ctx: ServiceContext, user: AuthUser, id: string) {
  const row = await findInterchange(ctx.db, id);
  if (
    !row ||
    row.brand_id === null ||
    !(await hasAdminGrantInOrganization(ctx.db, user, row.brand_id, row.organization_id))
  ) {
    throw notFound(INTERCHANGE_NOT_FOUND);
  }
  return row;
}

export async function interchangeDetail(
  ctx: ServiceContext,
  user: AuthUser,
  id: string,
): Promise<InterchangeDetail> {
  const row = await visibleInterchange(ctx, user, id);
  const item = itemOf(row);
  const orderIds = [...new Set(item.sets.flatMap((set) => (set.order_id ? [set.order_id] : [])))];
  return {
    ...item,
    segments: readableSegments(row.raw),
    orders: await ordersByIds(ctx.db, user, orderIds),
  };
}

/** The text as received, for a download. */
export async function interchangeRaw(ctx: ServiceContext, user: AuthUser, id: string) {
  const row = await visibleInterchange(ctx, user, id);
  const item = itemOf(row);
  if (!item.content_kept) throw nothingKept(item, 'no content to download');
  return {
    text: row.raw,
    contentType: X12_CONTENT_TYPE,
    fileName: downloadName(row.file_name, row.control_number, row.id),
  };
}

/**
 * Runs the stored text again through the one ingest path, for the interchange's own connection
 * (docs/decisions/0187-edi-inbox-reprocess.md: sets taken in before are not taken in again, and
 * no second 997 goes out). A file still refused answers 200 with the reason: the reprocess ran.
 */
export async function reprocessInterchange(
  ctx: ServiceContext,
  user: AuthUser,
  id: string,
): Promise<{ message: string; data: InterchangeDetail }> {
  const row = await visibleInterchange(ctx, user, id);
  const before = itemOf(row);
  if (!before.content_kept) throw nothingKept(before, 'nothing to reprocess');
  // Said before the run too (the run checks again inside its transaction), so an accepted
  // interchange whose connection is disabled since still answers that there is nothing to do.
  if (row.outcome === 'accepted' || row.outcome === 'duplicate') {
    throw conflict(
      row.outcome === 'accepted'
        ? NOTHING_TO_REPROCESS
        : 'This interchange is a repeat of an earlier one: reprocess that one instead',
    );
  }
  let refusal: string | null = null;
  try {
    await ingestInterchange(
      ctx,
      {
        text: row.raw,
        source: row.source,
        fileName: row.file_name,
        userId: user.id,
        requestUrl: `/api/v1/edi/interchanges/${id}/reprocess`,
        knownConnectionId: row.connection_id,
        reprocessOf: id,
      },
      async (connection) => connection.id === row.connection_id,
    );
  } catch (error) {
    // A refusal is the run's answer; a conflict (nothing to reprocess) or a failure is not.
    if (
      !(error instanceof DomainError) ||
      (error.kind !== 'invalid_request' && error.kind !== 'not_found')
    ) {
      throw error;
    }
    refusal = error.message;
  }
  const data = await interchangeDetail(ctx, user, id);
  return { message: reprocessMessage(before, data, refusal), data };
}

function reprocessMessage(
  before: InterchangeItem,
  after: InterchangeDetail,
  refusal: string | null,
): string {
  if (after.outcome === 'refused') {
    return `Reprocessed: still refused. ${after.reason ?? refusal ?? ''}`.trim();
  }
  // Refused now, though taken in partly before (say its connection was disabled since): the
  // stored run stays as it was.
  if (refusal !== null) return `Not reprocessed: ${refusal}`;
  const takenBefore = before.sets.filter((set) => set.status === 'accepted').length;
  const taken = after.sets.filter((set) => set.status === 'accepted').length;
  const newly = Math.max(0, taken - takenBefore);
  switch (after.outcome) {
    case 'accepted':
      return `Reprocessed: every set is taken in now (${newly} newly)`;
    case 'partial':
      return `Reprocessed: ${newly} more set(s) taken in; ${after.sets.length - taken} still rejected or duplicate`;
    case 'duplicate':
      return 'Reprocessed: this interchange repeats one taken in earlier (same sender and ISA13); nothing was taken in';
    default:
      return 'Reprocessed: still rejected; nothing was taken in';
  }
}

/** One segment per line: split at the terminator the ISA names (else at line breaks). */
export function readableSegments(raw: string): string[] {
  const text = raw.replace(/^\s+/, '');
  const terminator = text.startsWith('ISA') && text.length > 105 ? text[105]! : null;
  const parts = terminator ? text.split(terminator) : text.split(/\r?\n/);
  return parts
    .map((part) => part.replace(/^[\r\n]+|[\r\n]+$/g, ''))
    .filter((part) => part.trim() !== '')
    .map((part) => (terminator && !/[\r\n]/.test(terminator) ? `${part}${terminator}` : part));
}

/** The polled file's own name (made safe for a header), else one from the control number. */
function downloadName(fileName: string | null, control: string, id: string): string {
  const cleaned = (fileName ?? '')
    .split(/[/\\]/)
    .pop()!
    .replace(/[\p{Cc}\p{Cf}<>:"|?*]/gu, '_')
    .replace(/^[\s.]+|[\s.]+$/g, '')
    .slice(0, 120);
  if (cleaned !== '') return cleaned;
  return `interchange-${/^\d+$/.test(control) ? control : id}.edi`;
}
