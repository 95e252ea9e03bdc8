import { documentFor } from '../inventory';
import type { AdviceLine } from '../inventory';
import { insertDocuments, listBrandConnections, takeControlNumbers } from '../inventory';
import type { ServiceContext } from '../core/context';
import { CENTRAL_ID } from './role';

/**
 * Deliveries a workstation queued for the central (the connection's sender is `central`) arrive
 * without a document. The central builds each with its own control numbers, in one transaction
 * per delivery, and makes it due at once for its outbox drainer.
 */
export async function buildCentralDocuments(ctx: ServiceContext): Promise<number> {
  const queued = await ctx.db
    .selectFrom('advice_deliveries as d')
    .innerJoin('advice_snapshots as s', 's.id', 'd.snapshot_id')
    .innerJoin('brands as b', 'b.id', 's.brand_id')
    .leftJoin('facilities as f', 'f.id', 's.facility_id')
    .where('d.sender_id', '=', CENTRAL_ID)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('advice_documents as ad')
            .select('ad.delivery_id')
            .whereRef('ad.delivery_id', '=', 'd.id'),
        ),
      ),
    )
    .where('d.status', '=', 'PENDING')
    .where('d.connection_id', 'is not', null)
    .select([
      'd.id',
      'd.connection_id',
      'd.organization_id',
      's.id as snapshot_id',
      's.items_json',
      's.created_at',
      'b.id as brand_id',
      'b.name as brand_name',
      'b.external_brand_code',
      'f.id as facility_id',
      'f.name as facility_name',
      'f.external_facility_code',
    ])
    .execute();
  for (const row of queued) {
    const connection = (
      await listBrandConnections(
        ctx.db,
        row.brand_id,
        row.organization_id ? [row.organization_id] : [],
      )
    ).find((c) => c.id === row.connection_id);
    const at = ctx.clock.now().toISOString();
    await ctx.db.transaction().execute(async (trx) => {
      let update;
      let body: string | null = null;
      try {
        if (!connection) throw new Error('the connection no longer exists');
        const numbers =
          connection.kind === 'EDI_846' ? await takeControlNumbers(trx, connection.id) : null;
        const document = documentFor(
          connection,
          {
            snapshotId: row.snapshot_id,
            createdAt: new Date(row.created_at),
            brand: {
              brand_id: row.brand_id,
              name: row.brand_name,
              external_brand_code: row.external_brand_code,
            },
            facility:
              row.facility_id && row.facility_name && row.external_facility_code
                ? {
                    id: row.facility_id,
                    name: row.facility_name,
                    external_facility_code: row.external_facility_code,
                  }
                : null,
            items: JSON.parse(row.items_json) as AdviceLine[],
          },
          row.id,
          numbers,
        );
        body = document.body;
        update = {
          content_type: document.contentType,
          file_name: document.fileName,
          interchange_control_number: numbers?.interchange ?? null,
          next_attempt_at: at,
          error: null,
          updated_at: at,
        };
      } catch (error) {
        update = {
          status: 'FAILURE' as const,
          error: `Cannot build the document: ${(error as Error).message}`,
          updated_at: at,
        };
      }
      const updated = await trx
        .updateTable('advice_deliveries')
        .set(update)
        .where('id', '=', row.id)
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('advice_documents as ad')
                .select('ad.delivery_id')
                .where('ad.delivery_id', '=', row.id),
            ),
          ),
        )
        .executeTakeFirst();
      if (body !== null && updated.numUpdatedRows > 0n) {
        await insertDocuments(trx, row.items_json, [{ delivery_id: row.id, body }]);
      }
    });
  }
  return queued.length;
}
