/**
 * Polling through the REST adapter (issue 45 item 6): the mapped "orders changed since" call is
 * the net under webhooks (a tenant with webhooks polls every 5 minutes, one without every minute,
 * both on the gateway's durable poll queue), and the tenant says whether its store's "since" is
 * inclusive (>=) or exclusive (>): the adapter answers the contract's inclusive set either way, so
 * a change at exactly the cursor is not missed, and an order listed twice in one poll is one change.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOW } from '../../helpers/demo-gateway.js';
import { FLOWERS_STATELESS_FILE, flowersAdapter, startRestStore, type TestRestStore } from '../../helpers/rest-store.js';

const now = () => NOW;
let store: TestRestStore;
let orderId: string;
const at = new Date(NOW).toISOString();

/** flowers.yaml's orders_changed_since with the store's exclusive parameter. */
const exclusiveCall = (polling: unknown) => ({
  polling,
  operations: {
    orders_changed_since: {
      method: 'GET',
      path: '/orders',
      query: '{"updated_after": since, "page": page, "per_page": limit}',
      response:
        '{"changes": [data.{"orderId": order_id, "reference": reference, "updatedAt": updated_at}], "more": meta.page < meta.total_pages}',
    },
  },
});

beforeAll(async () => {
  store = await startRestStore({ now });
  const adapter = await flowersAdapter(store, now);
  const lines = [{ lineId: 'li_1', variantId: 'ebook_flower_care', quantity: 1 }];
  const quote = await adapter.quote({ lines, discountCodes: [] });
  const placed = await adapter.placeOrder({
    reference: 'chk_poll_1',
    quote: { lines, discountCodes: [], handle: quote.handle! },
    expectedTotal: quote.totals.total,
    buyer: { email: 'ann@example.com' },
    payment: { mode: 'gateway_charged', record: { handlerId: 'sandbox', transactionId: 'tx_poll_1', amount: quote.totals.total } },
  });
  orderId = (placed as { orderId: string }).orderId;
  await adapter.close();
});
afterAll(() => store.close());

describe('REST adapter polling', () => {
  it('finds a change at exactly the cursor on a store whose since is exclusive, when the tenant says so', async () => {
    const exclusive = await flowersAdapter(store, now, exclusiveCall({ since: 'exclusive' }));
    expect(await exclusive.ordersChangedSince!(at)).toEqual([{ orderId, reference: 'chk_poll_1', updatedAt: at }]);
    await exclusive.close();
    // The same store taken as inclusive asks for what changed after the cursor: the change is missed.
    const unsaid = await flowersAdapter(store, now, exclusiveCall(true));
    expect(await unsaid.ordersChangedSince!(at)).toEqual([]);
    await unsaid.close();
  });

  it('gives the change once on an inclusive store, and an order listed twice in one poll once, at its latest', async () => {
    const inclusive = await flowersAdapter(store, now, { polling: { since: 'inclusive' } });
    expect((await inclusive.ordersChangedSince!(at)).filter((c) => c.orderId === orderId)).toHaveLength(1);
    await inclusive.close();
    const twice = await flowersAdapter(store, now, {
      polling: true,
      operations: {
        orders_changed_since: {
          method: 'GET',
          path: '/orders',
          query: '{"updated_since": since, "page": page, "per_page": limit}',
          // The order as two pages of a list that moved under the poll would show it: once older, once newer.
          response:
            '{"changes": [data.{"orderId": order_id, "updatedAt": updated_at}, ' +
            'data.{"orderId": order_id, "updatedAt": "2020-01-01T00:00:00.000Z"}]}',
        },
      },
    });
    expect(await twice.ordersChangedSince!('2019-12-31T00:00:00.000Z')).toEqual([{ orderId, updatedAt: at }]);
    await twice.close();
  });

  it('polls as a net under webhooks every 5 minutes, and every minute where the store sends none', async () => {
    const withWebhooks = await flowersAdapter(store, now, { polling: true });
    expect(withWebhooks.ordersChangedSince).toBeDefined();
    expect(withWebhooks.orderPollSeconds).toBe(300);
    await withWebhooks.close();
    const stateless = await flowersAdapter(store, now, { polling: true, webhooks: undefined }, FLOWERS_STATELESS_FILE);
    expect(stateless.orderPollSeconds).toBeUndefined();
    await stateless.close();
  });
});
