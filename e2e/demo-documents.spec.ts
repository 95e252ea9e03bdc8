/**
 * The demo workspace's order documents (issue 16 item 11), as the API lists them for the demo
 * clerk: a fresh demo start shows every document state. The screens that show them are built
 * separately; this checks the data they show.
 */
import { DEMO, expect, test } from './support';

const order = (n: number) => `0d000000-0000-4000-8000-0000000000${String(n).padStart(2, '0')}`;

test('the demo orders list their documents in every state', async ({ request }) => {
  const token = await request
    .post('/api/auth/token', { data: DEMO })
    .then(async (answer) => ((await answer.json()) as { data: { access_token: string } }).data)
    .then((data) => data.access_token);
  const states = async (id: string) => {
    const answer = await request.get(`/api/v1/orders/${id}/documents`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(answer.status()).toBe(200);
    const { data } = (await answer.json()) as { data: { type: string; status: string }[] };
    return data.map((d) => `${d.type} ${d.status}`);
  };

  expect(await states(order(11))).toEqual(
    expect.arrayContaining(['855 accepted', '856 accepted', '810 accepted_with_errors']),
  );
  expect(await states(order(12))).toEqual(
    expect.arrayContaining(['855 accepted', '856 overdue', '810 failed']),
  );
  expect(await states(order(3))).toEqual(expect.arrayContaining(['855 rejected']));
  expect(await states(order(8))).toEqual(expect.arrayContaining(['855 sent']));
  expect(await states(order(1))).toEqual(expect.arrayContaining(['855 queued']));
  // A direct-API order has no X12 documents.
  expect(await states(order(2))).toEqual([]);
});
