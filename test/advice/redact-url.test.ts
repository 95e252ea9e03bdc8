/**
 * Secrets in URLs never reach the transaction log or delivery errors: the pure redaction rules,
 * then one delivery through the API to a URL carrying user-info and an api key.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redactUrl, redactUrlsInText } from '../../src/server/inventory/transmission/redact-url';
import { baseBundle, id } from '../helpers/fixtures';
import { respond, startReceiver, type Receiver } from '../helpers/receivers';
import { createTestService, type TestService } from '../helpers/service';
import { facilityUrl, FAST_POLICY, post, setTransport, tmpDir } from '../inventory/support';

describe('redactUrl', () => {
  it.each([
    ['http://user:pw@host/x?api_key=abc', 'http://host/x?api_key=REDACTED'],
    ['https://APIKEY123@partner.example/feed', 'https://partner.example/feed'],
    [
      'https://u:p%40ss@h:8443/a/b?x=1&y=2#frag',
      'https://h:8443/a/b?x=REDACTED&y=REDACTED#REDACTED',
    ],
    ['http://user:p@ss@host/', 'http://host/'],
    ['sftp://edi-partner@127.0.0.1:2222/in/846_1.x12', 'sftp://127.0.0.1:2222/in/846_1.x12'],
    ['https://host/x?token', 'https://host/x?REDACTED'],
    ['https://host/x?a=&b=c=d', 'https://host/x?a=REDACTED&b=REDACTED'],
    ['https://host/x?', 'https://host/x?'],
    ['https://[::1]:9/x?k=v', 'https://[::1]:9/x?k=REDACTED'],
    // An `@` in the path is not user-info.
    ['https://host/people/@me?q=1', 'https://host/people/@me?q=REDACTED'],
  ])('%s -> %s', (input, expected) => {
    expect(redactUrl(input)).toBe(expected);
    expect(redactUrl(expected)).toBe(expected); // idempotent: redacting twice changes nothing
  });

  it.each([
    'http://127.0.0.1:4000/partner-1/inventory',
    'http://127.0.0.1:4000',
    'file:///var/data/outbox/r1/846_000000101.x12',
    'sftp://127.0.0.1:22/in/846_000000101.x12',
    '',
  ])('leaves a URL without secrets byte for byte: %s', (url) => {
    expect(redactUrl(url)).toBe(url);
  });

  it('redacts URLs quoted inside error texts and leaves the rest of the text', () => {
    expect(
      redactUrlsInText(
        '404: no route for "https://u:pw@h/x?api_key=abc", see https://h/docs#auth (ECONNRESET)',
      ),
    ).toBe(
      '404: no route for "https://h/x?api_key=REDACTED", see https://h/docs#REDACTED (ECONNRESET)',
    );
    expect(redactUrlsInText('ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:1')).toBe(
      'ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:1',
    );
  });
});

describe('the transaction log of a delivery to a URL with credentials', () => {
  const SECRET = 'sk_live_0123456789';
  let receiver: Receiver;
  let svc: TestService;
  let data: ReturnType<typeof tmpDir>;
  let brand1: string;

  beforeAll(async () => {
    data = tmpDir('redact');
    receiver = await startReceiver(undefined, 'partner');
    const withSecrets = new URL(receiver.url);
    withSecrets.username = 'feed-user';
    withSecrets.password = 'hunter2';
    withSecrets.search = `?api_key=${SECRET}&format=json`;
    const bundle = baseBundle();
    setTransport(bundle, id('c', 3), { type: 'http', url: withSecrets.href });
    svc = await createTestService({
      seed: bundle,
      dataDir: data.path,
      deliveryPolicy: { ...FAST_POLICY, maxAttempts: 1 },
    });
    brand1 = await svc.login('brand1@a.test');
  });

  afterAll(async () => {
    await svc?.close();
    await receiver?.close();
    data?.remove();
  });

  const logRows = () =>
    svc.ctx.db
      .selectFrom('transactions')
      .select(['request_url', 'error_message', 'execution_status'])
      .execute();

  it('stores the URL without user-info or query values; the partner still got the key', async () => {
    const response = await post(svc, brand1, facilityUrl(id('b', 1), id('f', 3)), {
      items: [{ sku: 'A', available_quantity: 1 }],
    });
    expect(response.statusCode, response.body).toBe(200);
    const [received] = await receiver.waitFor(1);
    expect(received!.path).toContain(`api_key=${SECRET}`);

    const rows = await logRows();
    expect(rows).toHaveLength(1);
    const { origin, pathname } = new URL(receiver.url);
    expect(rows[0]!.request_url).toBe(`${origin}${pathname}?api_key=REDACTED&format=REDACTED`);
    expect(JSON.stringify(rows)).not.toMatch(/hunter2|feed-user|sk_live/);
  });

  it('redacts a URL the partner echoes in an error, in the log and in the delivery', async () => {
    receiver.handle(respond(500, `upstream http://feed-user:hunter2@x.test/y?api_key=${SECRET}`));
    const response = await post(svc, brand1, facilityUrl(id('b', 1), id('f', 3)), {
      items: [{ sku: 'B', available_quantity: 2 }],
    });
    expect(response.statusCode, response.body).toBe(502);
    const failed = (await logRows()).filter((row) => row.execution_status !== 'SUCCESS');
    expect(failed).toHaveLength(1);
    expect(failed[0]!.error_message).toBe('500: upstream http://x.test/y?api_key=REDACTED');
    const deliveries = await svc.ctx.db.selectFrom('advice_deliveries').select('error').execute();
    expect(JSON.stringify(deliveries)).not.toMatch(/hunter2|sk_live/);
    expect(response.body).not.toMatch(/hunter2|sk_live/);
  });
});
