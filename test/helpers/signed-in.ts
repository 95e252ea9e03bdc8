import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { createTestService, type TestService } from './service';

export type TestServiceOptions = NonNullable<Parameters<typeof createTestService>[0]>;

/** A test service shared by a file's tests, with its users signed in. */
export interface SignedInService<U extends string> {
  readonly svc: TestService;
  readonly tokens: Record<U, string>;
  /** The authorization header of `user`; none for null (an anonymous request). */
  headers: (user: U | null) => { authorization?: string };
  /** GET `url` as `user` (null: without a token). */
  get: (user: U | null, url: string) => Promise<LightMyRequestResponse>;
}

/**
 * Starts the service before the file's tests (seeded by `options()`), signs `users` in, and
 * closes it after them.
 */
export function signedInService<U extends string>(
  users: readonly U[],
  options: () => TestServiceOptions = () => ({}),
): SignedInService<U> {
  let started: TestService | undefined;
  const tokens = {} as Record<U, string>;
  beforeAll(async () => {
    started = await createTestService(options());
    for (const email of users) tokens[email] = await started.login(email);
  });
  afterAll(async () => {
    await started?.close();
  });
  const session: SignedInService<U> = {
    get svc() {
      if (!started) throw new Error('the test service is not started yet');
      return started;
    },
    tokens,
    headers: (user) => (user ? { authorization: tokens[user] } : {}),
    get: (user, url) =>
      session.svc.app.inject({ method: 'GET', url, headers: session.headers(user) }),
  };
  return session;
}
