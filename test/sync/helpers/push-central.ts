import type { Engine } from '../../../src/server/db/engine';
import { pushFromDevice } from '../../../src/server/sync/central';
import type { PushAnswer, PushedMutation } from '../../../src/server/sync/protocol';
import { startCentral, type TestCentral } from './cluster';

/** A central on either engine whose pushes a test drives directly (pushFromDevice), with its rows to read. */
export interface PushCentral {
  service: TestCentral;
  push(
    device: { id: string; facility_ids: string[] },
    mutations: PushedMutation[],
  ): Promise<PushAnswer>;
  close(): Promise<void>;
}

/** The demo central with the test devices; on PostgreSQL on a database cloned for it. */
export async function startPushCentral(engine: Engine): Promise<PushCentral> {
  const service = await startCentral({ engine });
  return {
    service,
    push: (device, mutations) =>
      pushFromDevice(
        service.context,
        { id: device.id, facilityIds: device.facility_ids },
        { mutations },
      ),
    close: () => service.close(),
  };
}
