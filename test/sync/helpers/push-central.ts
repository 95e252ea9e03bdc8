import { inject } from 'vitest';
import type { Engine } from '../../../src/server/db/engine';
import { startService, type RunningService } from '../../../src/server/http/server';
import { postgresApplySql } from '../../../src/server/sync/apply-sql-postgres';
import { applyPush } from '../../../src/server/sync/central-apply';
import { pushFromDevice } from '../../../src/server/sync/central';
import type { PushedMutation } from '../../../src/server/sync/protocol';
import { cloneTemplate } from '../../helpers/postgres/databases';
import { TEST_PASSWORD_COST } from '../../helpers/service';
import { DEVICES, seedInto, startCentral, tempDataDir } from './cluster';

/** A central's push as a test drives it, on either engine, with the central's rows to read. */
export interface PushCentral {
  service: RunningService;
  push(
    device: { id: string; facility_ids: string[] },
    mutations: PushedMutation[],
  ): ReturnType<typeof applyPush>;
  close(): Promise<void>;
}

/**
 * SQLite: a central as the sync tests start it, pushed through pushFromDevice. PostgreSQL: the
 * demo service on a cloned database made a central by its sync_meta row (the stamp triggers act
 * from then on), pushed through applyPush on one of the pool's connections, as pushFromDevice
 * does once a PostgreSQL central starts (the start refusal is lifted with the PostgreSQL pull).
 */
export async function startPushCentral(engine: Engine): Promise<PushCentral> {
  if (engine === 'sqlite') {
    const service = await startCentral();
    return {
      service,
      push: async (device, mutations) => {
        const answer = await pushFromDevice(
          service.context,
          { id: device.id, facilityIds: device.facility_ids },
          { mutations },
        );
        return { ...answer, gap: null };
      },
      close: () => service.close(),
    };
  }
  const postgres = inject('postgres');
  if (!postgres) throw new Error('no PostgreSQL for tests');
  const cloned = await cloneTemplate(postgres);
  const service = await startService(
    {
      host: '127.0.0.1',
      port: 0,
      dataDir: tempDataDir('pg-central'),
      databaseUrl: cloned.url,
      poolSize: 8,
      seed: 'demo',
      uiDir: null,
      outboxDrain: false,
    },
    { passwordCost: TEST_PASSWORD_COST },
  );
  await seedInto(service, { devices: Object.values(DEVICES) });
  await service.context.db
    .insertInto('sync_meta')
    .values({ id: 1, epoch: '00000000-0000-4000-8000-0000000000e1' })
    .execute();
  return {
    service,
    push: (device, mutations) =>
      service.context.db
        .connection()
        .execute((connection) =>
          applyPush(
            { sql: postgresApplySql(connection), now: () => new Date() },
            device.id,
            new Set(device.facility_ids),
            mutations,
          ),
        ),
    async close() {
      await service.close();
      await cloned.drop();
    },
  };
}
