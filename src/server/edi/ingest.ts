/**
 * The one inbound path (HTTP, polled folders): reads an interchange, finds the connection it is
 * addressed to, and in ONE transaction records it, takes its sets in (./ingest-sets.ts), writes
 * the log rows and queues a 997 per inbound group as an outbound order document (and, with
 * `order_documents.auto_acknowledge`, an 855 per order an 850 made). They go out
 * after the commit through the connection's transport (./send.ts); no network I/O is awaited
 * inside the transaction.
 */
import { randomUUID } from 'node:crypto';
import type { ServiceContext } from '../core/context';
import { conflict, invalidRequest, notFound, type DomainError } from '../core/errors';
import type { Db } from '../db/db';
import { engineOf } from '../db/engine';
import { reportQuietly, takeControlNumbers, type EdiSettings } from '../inventory';
import { requireCentralWrite, senderOfNewDelivery } from '../sync/role';
import { planIngest, type IngestPlan, type PlannedGroup } from './inbound/ingest-plan';
import {
  connectionFacilities,
  findDocumentsOfGroups,
  findInboundConnections,
  findInterchangeRun,
  findTakenInterchange,
  insertInterchange,
  updateInterchangeRun,
  type InboundConnectionRow,
} from './ingest-queries';
import type { IngestLogEntry } from './ingest-log';
import { applySet, flushAcknowledgments, flushLogs, type SetSummary } from './ingest-sets';
import { queueAutoAcknowledgment } from './auto-replies';
import { insertOrderDocument } from './queries';
import { lockInterchange as sqliteLockInterchange } from './interchange-lock';
import { lockInterchange as postgresLockInterchange } from './interchange-lock.postgres';
import { claimDocument, releaseDocument, sendClaimedDocuments } from './send';
import { orderDocumentSettingsOf } from './settings';
import { recordRefusal, type RefusalKind } from './ingest-refusal';
import type { InterchangeOutcome, InterchangeSource, OrderDocumentStatus } from './tables';
import { logFacilityAmong } from './log-facility';
import { readX12, type Interchange } from './x12/reader';
import { writeInterchange, X12_CONTENT_TYPE } from './x12/writer';
import { errorText } from './error-text';

export interface InboundFile {
  text: string;
  source: InterchangeSource;
  /** The polled file's name; null over HTTP. */
  fileName: string | null;
  /** Who posted it; null for a polled file. */
  userId: string | null;
  /** What the log rows name as the request: the route, or the folder. */
  requestUrl: string;
  /**
   * The connection the file is known to belong to (its polled folder, or the interchange being
   * reprocessed): a file refused before any connection is found (empty, not X12, addressed to
   * another company) is still recorded for it, so the EDI inbox lists it. Null over HTTP, where
   * a refused stranger's file belongs to no tenant and is not kept.
   */
  knownConnectionId?: string | null;
  /**
   * The stored interchange this text is run again for (POST …/interchanges/{id}/reprocess): its
   * row is updated in place, and the sets it took in before are not taken in again
   * (docs/decisions/0187-edi-inbox-reprocess.md).
   */
  reprocessOf?: string | null;
  /**
   * The id of the order a PO makes (by PO number); random when absent or undefined. Only the demo
   * workspace names them, so its orders have the same ids at every start.
   */
  orderIdFor?: (poNumber: string) => string | undefined;
}

/** The answer's data (DESIGN.md, "Order documents with retailers"). */
export interface InterchangeSummary {
  interchange_id: string;
  interchange_control_number: string;
  duplicate: boolean;
  outcome: InterchangeOutcome;
  transaction_sets: SetSummary[];
}

export interface IngestAnswer {
  message: string;
  data: InterchangeSummary;
}

/**
 * Which of the addressed connections the caller may ingest for (the route: the user is an admin
 * of its brand in its organisation; a polled folder: its own connection). Decided from stored
 * rows only.
 */
export type ConnectionFilter = (connection: InboundConnectionRow) => Promise<boolean>;

/** The same words for no connection and another tenant's connection: nothing of it shows. */
const unknownAddressees = (interchange: Interchange) =>
  notFound(
    `No EDI connection of yours takes interchanges from "${interchange.senderId}" to "${interchange.receiverId}"`,
  );

export async function ingestInterchange(
  ctx: ServiceContext,
  file: InboundFile,
  allowed: ConnectionFilter,
): Promise<IngestAnswer> {
  // Interchanges are taken in where orders are made for every facility: the central (or a
  // standalone install). Their rows, orders and 997s reach the devices by sync, read-only.
  requireCentralWrite(ctx);
  const refuse = async (kind: RefusalKind, error: DomainError, interchange: Interchange | null) => {
    await recordRefusal(ctx, file, { kind, message: error.message, interchange });
    return error;
  };
  if (file.text.trim() === '') {
    throw await refuse('empty', invalidRequest('The interchange is empty'), null);
  }
  const read = readX12(file.text);
  const interchange = read.interchange;
  if (!interchange) {
    throw await refuse(
      'not_x12',
      invalidRequest(
        `The file is not an X12 interchange: ${read.faults.map((f) => f.message).join('; ') || 'no ISA segment'}`,
      ),
      null,
    );
  }
  let connection: InboundConnectionRow | undefined;
  for (const candidate of await findInboundConnections(
    ctx.db,
    interchange.senderId,
    interchange.receiverId,
  )) {
    if (await allowed(candidate)) {
      connection = candidate;
      break;
    }
  }
  if (!connection) throw await refuse('addressee', unknownAddressees(interchange), interchange);
  const startedAt = performance.now();
  const claimed: string[] = [];
  let result: { plan: IngestPlan; data: InterchangeSummary } | undefined;
  // In this process the one SQLite connection serialises the transactions, and on PostgreSQL
  // a lock per interchange does (./interchange-lock.postgres.ts); another process taking the same
  // interchange in meanwhile loses on the unique index, and the second try sees it as a duplicate.
  for (let attempt = 1; !result; attempt++) {
    try {
      result = await ctx.db
        .transaction()
        .execute((trx) =>
          ingestWithin(ctx, trx, { file, read, interchange, connection, startedAt, claimed }),
        );
    } catch (error) {
      for (const id of claimed.splice(0)) releaseDocument(ctx, id);
      if (attempt >= 2 || !takenMeanwhile(error)) throw error;
    }
  }
  if (claimed.length > 0) {
    // After the commit, not awaited: the answer does not wait on the partner; a failure is
    // recorded on the document and retried by the drainer.
    // Reported quietly: nothing may escape this detached promise (a log that throws included).
    sendClaimedDocuments(ctx, claimed, { automatic: false }).catch((error: unknown) =>
      reportQuietly((e) => console.error(`sending a 997 or 855 failed: ${errorText(e)}`), error),
    );
  }
  const { plan, data } = result;
  if (plan.refused) throw invalidRequest(`The interchange was refused: ${plan.refused}`, { data });
  return { message: messageOf(data), data };
}

interface IngestInput {
  file: InboundFile;
  read: ReturnType<typeof readX12>;
  interchange: Interchange;
  connection: InboundConnectionRow;
  startedAt: number;
  /** Filled with the 997 documents this replica sends (claimed in the transaction). */
  claimed: string[];
}

async function ingestWithin(ctx: ServiceContext, trx: Db, input: IngestInput) {
  const { interchange, connection, file } = input;
  const at = ctx.clock.now().toISOString();
  const edi = JSON.parse(connection.edi_json!) as EdiSettings;
  const lock = engineOf(trx) === 'postgres' ? postgresLockInterchange : sqliteLockInterchange;
  await lock(trx, {
    qualifier: interchange.senderQualifier,
    senderId: interchange.senderId,
    control: interchange.control,
  });
  const previous = file.reprocessOf ? await previousRun(trx, file.reprocessOf) : null;
  const [taken, facilities] = await Promise.all([
    findTakenInterchange(trx, {
      qualifier: interchange.senderQualifier,
      senderId: interchange.senderId,
      control: interchange.control,
      exceptId: file.reprocessOf ?? null,
    }),
    connectionFacilities(trx, connection.organization_id, connection.brand_id),
  ]);
  const orderFacility =
    orderDocumentSettingsOf(connection.order_documents_json)?.facility_id ?? null;
  const plan = planIngest({
    read: input.read,
    connection: {
      sender_id: edi.sender_id,
      receiver_id: edi.receiver_id,
      brand_id: connection.brand_id,
      retailer_id: connection.retailer_id,
      facility_id: orderFacility,
    },
    facilities,
    seenBefore: taken !== undefined,
  });
  const interchangeId = file.reprocessOf ?? randomUUID();
  const context = {
    trx,
    connection,
    interchangeId,
    requestUrl: file.requestUrl,
    startedAt: input.startedAt,
    at,
    createdOrders: [] as string[],
    logFacility: logFacilityAmong(facilities, orderFacility),
    orderIdFor: file.orderIdFor,
    logs: [] as IngestLogEntry[],
    acknowledged: {
      outcomes: new Map<string, OrderDocumentStatus>(),
      logs: [] as IngestLogEntry[],
    },
    groupDocuments: await findDocumentsOfGroups(
      trx,
      connection.id,
      plan.groups.flatMap((group) =>
        group.sets.flatMap((set) =>
          set.status === 'accepted' && set.content?.kind === 'acknowledgment'
            ? [Number(set.content.acknowledgment.group_control)].filter(Number.isSafeInteger)
            : [],
        ),
      ),
    ),
  };
  const sets: SetSummary[] = [];
  for (const group of plan.groups) {
    const groupSets: SetSummary[] = [];
    for (const set of group.sets) {
      // A set an earlier run took in stays as it was: it is never applied twice.
      const before = previous?.taken.get(sets.length + groupSets.length);
      groupSets.push(before ?? (await applySet(set, context)));
    }
    sets.push(...groupSets);
    // The retailer had its 997 from the first run; only a run of a refused file (never
    // answered) sends one.
    if (group.ack && (previous === null || previous.outcome === 'refused')) {
      const logFacility = context.logFacility;
      const input997 = { group, groupSets, edi, connection, interchangeId, at, logFacility };
      const id = await queue997(ctx, trx, input997);
      if (id) input.claimed.push(id);
    }
  }
  await flushAcknowledgments(context);
  await flushLogs(context);
  for (const orderId of context.createdOrders) {
    // Once every group is in: the 855s take the control numbers after the 997s'.
    const ack = await queueAutoAcknowledgment(ctx, trx, orderId, connection.id, at);
    if (ack?.sendsHere && ack.error === null) input.claimed.push(ack.id);
  }
  const outcome = outcomeOf(plan, sets);
  const data: InterchangeSummary = {
    interchange_id: interchangeId,
    interchange_control_number: interchange.control,
    duplicate: plan.duplicate,
    outcome,
    transaction_sets: sets,
  };
  const summary = JSON.stringify({
    ...data,
    errors: plan.errors,
    refused: plan.refused,
    refusal: plan.refused ? refusalOf(plan) : null,
    // Where each set's faults are (segment position and tag), for the inbox's clerk words.
    located: plan.groups.flatMap((group) =>
      group.sets.map((set) =>
        set.faults.map((f) => ({ segment: f.segment, position: f.position, message: f.message })),
      ),
    ),
    ...(previous ? { reprocessed_at: at, runs: previous.runs + 1 } : {}),
  });
  if (previous) {
    await updateInterchangeRun(trx, interchangeId, {
      outcome,
      duplicate_of: taken?.id ?? null,
      summary_json: summary,
    });
    return { plan, data };
  }
  await insertInterchange(trx, {
    id: interchangeId,
    connection_id: connection.id,
    organization_id: connection.organization_id,
    brand_id: connection.brand_id,
    retailer_id: connection.retailer_id,
    sender_qualifier: interchange.senderQualifier,
    sender_id: interchange.senderId,
    receiver_id: interchange.receiverId,
    control_number: interchange.control,
    source: file.source,
    file_name: file.fileName,
    user_id: file.userId,
    received_at: at,
    raw: file.text,
    outcome,
    duplicate_of: taken?.id ?? null,
    summary_json: summary,
  });
  return { plan, data };
}

/**
 * The stored run of an interchange being reprocessed, read inside the transaction so parallel
 * reprocess calls see each other's outcome: an interchange taken in whole (or a duplicate) is
 * not run again; of the others, the sets taken in before are kept as they were, by position.
 */
async function previousRun(trx: Db, id: string) {
  const row = await findInterchangeRun(trx, id);
  if (!row) throw notFound('Interchange not found');
  if (row.outcome === 'accepted' || row.outcome === 'duplicate') {
    throw conflict(
      row.outcome === 'accepted'
        ? 'This interchange was taken in whole already: there is nothing to reprocess'
        : 'This interchange is a repeat of an earlier one: reprocess that one instead',
    );
  }
  const summary = JSON.parse(row.summary_json) as {
    transaction_sets?: SetSummary[];
    runs?: number;
  };
  const taken = new Map<number, SetSummary>();
  summary.transaction_sets?.forEach((set, index) => {
    if (set.status === 'accepted') taken.set(index, set);
  });
  return { outcome: row.outcome, taken, runs: summary.runs ?? 1 };
}

function refusalOf(plan: IngestPlan): RefusalKind {
  return plan.groups.length === 0 ? 'no_group' : 'addressee';
}

function takenMeanwhile(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  // SQLite's code, or PostgreSQL's unique_violation (its message names the index).
  return (
    (code === 'SQLITE_CONSTRAINT_UNIQUE' || code === '23505') &&
    typeof message === 'string' &&
    message.includes('edi_interchanges')
  );
}

function outcomeOf(plan: IngestPlan, sets: SetSummary[]): InterchangeOutcome {
  if (plan.refused) return 'refused';
  if (plan.duplicate) return 'duplicate';
  const taken = sets.filter((set) => set.status !== 'rejected').length;
  if (taken === sets.length) return 'accepted';
  return taken === 0 ? 'rejected' : 'partial';
}

function messageOf(data: InterchangeSummary): string {
  if (data.duplicate) {
    return 'This interchange was received before (same sender and ISA13): nothing was taken in again';
  }
  const count = (status: SetSummary['status']) =>
    data.transaction_sets.filter((set) => set.status === status).length;
  return (
    `Interchange ${data.interchange_control_number} received: ${count('accepted')} accepted, ` +
    `${count('rejected')} rejected, ${count('duplicate')} duplicate`
  );
}

/**
 * The group's 997, enveloped with the connection's next control numbers and stored as an
 * outbound order document (queued). Answers the document's id when this replica sends it.
 */
async function queue997(
  ctx: ServiceContext,
  trx: Db,
  input: {
    group: PlannedGroup;
    groupSets: SetSummary[];
    edi: EdiSettings;
    connection: InboundConnectionRow;
    interchangeId: string;
    at: string;
    /** Where a 997 of no single order is logged (log-facility.ts). */
    logFacility: string | null;
  },
): Promise<string | null> {
  const ack = input.group.ack!;
  const numbers = await takeControlNumbers(trx, input.connection.id);
  const written = writeInterchange({
    edi: input.edi,
    functionalId: 'FA',
    interchangeControlNumber: numbers.interchange,
    groupControlNumber: numbers.group,
    createdAt: new Date(input.at),
    // build997 answers ST…SE; the writer adds those itself.
    transactionSets: [ack.slice(1, -1)],
    transactionControlNumbers: [ack[0]![2]!],
  });
  // The order the 997 belongs with, when its group made or changed exactly one.
  const orders = [...new Set(input.groupSets.map((s) => s.order_id).filter((id) => id !== null))];
  const orderId = orders.length === 1 ? orders[0]! : null;
  const facilityId = orderId
    ? ((
        await trx
          .selectFrom('orders')
          .select('facility_id')
          .where('id', '=', orderId)
          .executeTakeFirst()
      )?.facility_id ?? null)
    : input.logFacility;
  const { senderId, sendsHere } = senderOfNewDelivery(ctx.sync, input.connection);
  const id = randomUUID();
  await insertOrderDocument(trx, {
    id,
    order_id: orderId,
    brand_id: input.connection.brand_id,
    facility_id: facilityId,
    connection_id: input.connection.id,
    organization_id: input.connection.organization_id,
    retailer_id: input.connection.retailer_id,
    type: '997',
    direction: 'out',
    status: 'queued',
    interchange_control_number: numbers.interchange,
    group_control_number: numbers.group,
    transaction_control_number: written.transactionControlNumbers[0]!,
    document: written.text,
    content_type: X12_CONTENT_TYPE,
    file_name: written.fileName,
    error: null,
    next_attempt_at: input.at,
    sender_id: senderId,
    sent_at: null,
    acknowledged_at: null,
    created_at: input.at,
    updated_at: input.at,
    interchange_id: input.interchangeId,
  });
  // Claimed before the commit, so a drain pass does not send it before this request does.
  return sendsHere && claimDocument(ctx, id) ? id : null;
}
