/** Pieces of the benches that run the service in this process (Fastify inject, no network). */
import type { FastifyInstance } from 'fastify';
import { defaultDeliveryPolicy } from '../src/server/inventory/transmission/types';
import type { ServiceContext } from '../src/server/core/context';

/** The service context of an in-process bench over `db`; `extra` overrides (e.g. passwordCost). */
export function benchContext(
  db: ServiceContext['db'],
  dataDir: string,
  extra: Partial<ServiceContext> = {},
): ServiceContext {
  return {
    db,
    secret: new TextEncoder().encode('bench-secret-bench-secret-bench-secret'),
    clock: { now: () => new Date() },
    dataDir,
    deliveryPolicy: defaultDeliveryPolicy,
    deliveryConcurrency: 8,
    deliveriesInFlight: new Set(),
    ...extra,
  };
}

/** Signs in through the service; the bearer header value. */
export async function injectedAuthorization(
  app: FastifyInstance,
  email: string,
  password: string,
): Promise<string> {
  const login = await app.inject({
    method: 'POST',
    url: '/api/auth/token',
    payload: { email, password },
  });
  if (login.statusCode !== 200) throw new Error(`sign-in: ${login.statusCode} ${login.body}`);
  return `Bearer ${login.json<{ data: { access_token: string } }>().data.access_token}`;
}
