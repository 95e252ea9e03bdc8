import type { Db } from '../db/db';
import { sealOrderDocumentsJson } from '../core/sealed-order-documents';
import { hasSecretsKey, sealTransportJson } from '../core/secret-box';

/**
 * Seals the credentials of connections stored before this desktop had a keychain key (an
 * upgrade, or a data dir first used headless). Run at start, before sync is installed.
 */
export async function sealStoredConnections(db: Db): Promise<void> {
  if (!hasSecretsKey()) return;
  const rows = await db
    .selectFrom('connections')
    .select(['id', 'transport_json', 'order_documents_json'])
    .execute();
  for (const row of rows) {
    const sealed = sealTransportJson(row.transport_json);
    // An SFTP inbound directory's password or key (order_documents.inbound) too.
    const sealedDocuments = sealOrderDocumentsJson(row.order_documents_json);
    if (sealed === row.transport_json && sealedDocuments === row.order_documents_json) continue;
    await db
      .updateTable('connections')
      .set({ transport_json: sealed, order_documents_json: sealedDocuments })
      .where('id', '=', row.id)
      .where('transport_json', '=', row.transport_json)
      .where((eb) =>
        row.order_documents_json === null
          ? eb('order_documents_json', 'is', null)
          : eb('order_documents_json', '=', row.order_documents_json),
      )
      .execute();
  }
}
