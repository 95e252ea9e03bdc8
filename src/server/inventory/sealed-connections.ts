import type { Db } from '../db/db';
import { hasSecretsKey, sealTransportJson } from '../core/secret-box';

/**
 * Seals the credentials of connections stored before this desktop had a keychain key (an
 * upgrade, or a data dir first used headless). Run at start, before sync is installed.
 */
export async function sealStoredConnections(db: Db): Promise<void> {
  if (!hasSecretsKey()) return;
  const rows = await db.selectFrom('connections').select(['id', 'transport_json']).execute();
  for (const row of rows) {
    const sealed = sealTransportJson(row.transport_json);
    if (sealed === row.transport_json) continue;
    await db
      .updateTable('connections')
      .set({ transport_json: sealed })
      .where('id', '=', row.id)
      .where('transport_json', '=', row.transport_json)
      .execute();
  }
}
