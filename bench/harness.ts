/** What the advice benches share: the seeded service, JSON POSTs and the bench user's token. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { request, type Agent } from 'undici';
import { startService } from '../src/server/http/server';
import { BENCH_EMAIL, BENCH_PASSWORD, benchBundle } from './fixtures';

/** Starts the real service on `dataDir`, seeded with the bench bundle aimed at `partnerUrls`. */
export function startBenchService(dataDir: string, partnerUrls: string[]) {
  const seedPath = join(dataDir, 'bench-seed.json');
  writeFileSync(seedPath, JSON.stringify(benchBundle(partnerUrls)));
  return startService({ host: '127.0.0.1', port: 0, dataDir, seed: seedPath, uiDir: null });
}

export async function postJson(agent: Agent, url: string, body: string, headers = {}) {
  const response = await request(url, {
    method: 'POST',
    dispatcher: agent,
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
  const text = await response.body.text();
  return { status: response.statusCode, text };
}

/** Signs in as the bench user: the value for the Authorization header. */
export async function benchAuthorization(agent: Agent, serviceUrl: string): Promise<string> {
  const token = await postJson(
    agent,
    `${serviceUrl}/api/auth/token`,
    JSON.stringify({ email: BENCH_EMAIL, password: BENCH_PASSWORD }),
  );
  if (token.status !== 200) throw new Error(`token: ${token.status} ${token.text}`);
  return `Bearer ${JSON.parse(token.text).data.access_token as string}`;
}
