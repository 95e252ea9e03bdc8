/**
 * What a clerk sees of a polled source that cannot be reached (a dead SFTP server, a wrong host
 * key or password): one FAILURE row in the transaction log (action INGEST_PURCHASE_ORDER, the
 * reason in error_message, the source's URL without secrets) when the trouble starts or its
 * reason changes, and one SUCCESS row when the source answers again; every failing pass also
 * goes to the service log. Rows only on a change, so a server down all weekend is one row, not
 * one per pass. The last state is kept per service (a restart repeats at most one row).
 */
import type { ServiceContext } from '../core/context';
import { insertTransactionRow, logRowOutcome } from '../orders';
import { INGEST_ACTIONS } from './ingest-log';
import { connectionLogFacility } from './log-facility';
import { orderDocumentSettingsOf } from './settings';

export interface PolledConnection {
  id: string;
  organization_id: string;
  brand_id: string;
  retailer_id: string;
  order_documents_json: string | null;
}

const lastProblem = new WeakMap<ServiceContext, Map<string, string>>();

const problemsOf = (ctx: ServiceContext) => {
  let map = lastProblem.get(ctx);
  if (!map) lastProblem.set(ctx, (map = new Map()));
  return map;
};

/** The source could not be polled: logged always, recorded when new. */
export async function noteSourceFailed(
  ctx: ServiceContext,
  connection: PolledConnection,
  url: string,
  reason: string,
): Promise<void> {
  console.error(`inbound poll of ${url} failed: ${reason}`);
  const problems = problemsOf(ctx);
  if (problems.get(connection.id) === reason) return;
  await writeRow(ctx, connection, url, 'FAILURE', `Inbound directory not polled: ${reason}`);
  problems.set(connection.id, reason);
}

/** The source answered; after a recorded failure, that it works again. */
export async function noteSourceReached(
  ctx: ServiceContext,
  connection: PolledConnection,
  url: string,
): Promise<void> {
  const problems = problemsOf(ctx);
  if (!problems.has(connection.id)) return;
  await writeRow(ctx, connection, url, 'SUCCESS', null);
  problems.delete(connection.id);
}

async function writeRow(
  ctx: ServiceContext,
  connection: PolledConnection,
  url: string,
  status: 'SUCCESS' | 'FAILURE',
  reason: string | null,
) {
  const at = ctx.clock.now().toISOString();
  const action = INGEST_ACTIONS['850'];
  // A facility of the connection's organisation: a row without one is listed brand-wide.
  const facilityId = await connectionLogFacility(
    ctx.db,
    connection,
    orderDocumentSettingsOf(connection.order_documents_json)?.facility_id ?? null,
  );
  await insertTransactionRow(ctx.db, {
    transaction_id: crypto.randomUUID(),
    action_type: action.code,
    action_type_label: action.label,
    brand_id: facilityId === null ? null : connection.brand_id,
    retailer_id: connection.retailer_id,
    facility_id: facilityId,
    order_id: null,
    carton_id: null,
    load_id: null,
    correlation_id: connection.id,
    request_method: 'GET',
    request_url: url,
    request_payload: JSON.stringify({ connection_id: connection.id }),
    ...logRowOutcome({
      startedAt: performance.now(),
      at,
      status,
      errorMessage: reason,
      responseStatus: status === 'FAILURE' ? 503 : 200,
      responseBody: { status, reason: reason ?? 'The inbound directory answers again' },
    }),
  });
}
