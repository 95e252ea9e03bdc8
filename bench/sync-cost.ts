/**
 * `npx tsx bench/sync-cost.ts`: what `synchronous = FULL` (src/server/db/database.ts) costs against
 * `NORMAL`. The same advice as bench/run.ts (1000 items to 8 loopback http partners, through the
 * real service over real HTTP) is sent alternately under each setting, so both see the same
 * machine load; then bare single-row commits on the same data dir show the fsync per commit.
 * The pragma is switched on the service's one connection between advices.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { Agent } from 'undici';
import { benchItems, ids } from './fixtures';
import { benchAuthorization, postJson, startBenchService } from './harness';
import { startReceivers } from './receivers';
import { ms, summarise, timeRuns } from './stats';

const ITEMS = 1000;
const WARMUP = 20;
const MEASURED_PER_SETTING = 150;
const COMMITS_PER_SETTING = 500;
const SETTINGS = ['NORMAL', 'FULL'] as const;
type Setting = (typeof SETTINGS)[number];

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'fi-sync-bench-'));
  const receivers = await startReceivers(8);
  const agent = new Agent();
  const service = await startBenchService(
    dataDir,
    receivers.list.map((r) => r.url),
  );
  try {
    const db = service.context.db;
    const setSync = (setting: Setting) => sql.raw(`PRAGMA synchronous = ${setting}`).execute(db);
    const authorization = await benchAuthorization(agent, service.url);
    const adviceUrl = `${service.url}/api/v1/inventory/brand/${ids.brand}/facility/${ids.facility}`;
    const body = JSON.stringify({ items: benchItems(ITEMS) });
    const advise = async () => {
      const response = await postJson(agent, adviceUrl, body, { authorization });
      if (response.status !== 200) throw new Error(`advice: ${response.status}`);
    };

    await timeRuns(0, WARMUP, advise);
    const adviceSamples: Record<Setting, number[]> = { NORMAL: [], FULL: [] };
    for (let i = 0; i < MEASURED_PER_SETTING; i++) {
      for (const setting of SETTINGS) {
        await setSync(setting);
        adviceSamples[setting].push((await timeRuns(1, 0, advise)).samples[0]!);
      }
    }

    // One tiny write transaction per commit: the bare price of the WAL fsync.
    await sql`CREATE TABLE IF NOT EXISTS sync_probe (n INTEGER)`.execute(db);
    const commitSamples: Record<Setting, number[]> = { NORMAL: [], FULL: [] };
    for (let i = 0; i < COMMITS_PER_SETTING; i++) {
      for (const setting of SETTINGS) {
        await setSync(setting);
        const { samples } = await timeRuns(1, 0, () =>
          db
            .insertInto('sync_probe' as never)
            .values({ n: i } as never)
            .execute(),
        );
        commitSamples[setting].push(samples[0]!);
      }
    }
    await setSync('FULL');

    const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
    console.log(`data dir on ${tmpdir()}; advice = ${ITEMS} items to 8 http partners`);
    console.log('setting  advice median  advice p95   commit median  commit p95');
    for (const setting of SETTINGS) {
      const advice = summarise(adviceSamples[setting], sum(adviceSamples[setting]));
      const commit = summarise(commitSamples[setting], sum(commitSamples[setting]));
      console.log(
        `${setting.padEnd(8)} ${ms(advice.medianMs).padStart(13)} ${ms(advice.p95Ms).padStart(11)}` +
          `   ${ms(commit.medianMs).padStart(13)} ${ms(commit.p95Ms).padStart(10)}`,
      );
    }
  } finally {
    await service.close();
    await receivers.close();
    await agent.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
