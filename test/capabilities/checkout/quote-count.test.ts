/**
 * The store's quotes per checkout operation, counted at the demo store's adapter (as the adapters'
 * call-count tests count store calls, test/adapters/store-calls.test.ts): a create asks for one
 * quote, whether from line items, from a cart, from a cart already converted (the open checkout it
 * answers with, priced afresh) or in a race with another conversion of the same cart; an update
 * asks for one; a get asks for one while the session is open (its prices may have moved) and none
 * once it no longer changes. The one exception is an option sent without its group (an option id
 * discovered in the catalog): the store's groups exist only after a first quote, so it takes one
 * more (docs/decisions.md).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Adapter } from '../../../adapters/contract.js';
import { BUYER, CHICAGO, checkoutGateway, line, pay, walkToReady, type CheckoutGateway } from './checkout-gateway.js';

interface QuoteCounter {
  quotes: number;
  /** While set, quotes wait until this many are asked for at once (two conversions racing). */
  together?: number;
}

function counting(counter: QuoteCounter) {
  let waiting: Array<() => void> = [];
  return (adapter: Adapter): Adapter =>
    Object.assign(Object.create(adapter) as Adapter, {
      async quote(...args: Parameters<Adapter['quote']>) {
        counter.quotes += 1;
        if (counter.together !== undefined) {
          const all = new Promise<void>((resolve) => waiting.push(resolve));
          if (waiting.length === counter.together) {
            for (const release of waiting) release();
            waiting = [];
            delete counter.together;
          }
          await all;
        }
        return adapter.quote(...args);
      },
    });
}

const counter: QuoteCounter = { quotes: 0 };
let gw: CheckoutGateway;
beforeAll(async () => {
  gw = await checkoutGateway({ wrapAdapter: counting(counter), tenant: { policies: { cart_ttl_seconds: 86_400 } } });
});
afterAll(() => gw.close());

/** The quotes `call` asked the store for. */
async function quotesOf<T>(call: () => Promise<T>): Promise<{ quotes: number; reply: T }> {
  counter.quotes = 0;
  const reply = await call();
  return { quotes: counter.quotes, reply };
}

const linesOf = (body: any) => body.line_items.map((l: any) => ({ id: l.id, item: { id: l.item.id }, quantity: l.quantity }));

describe('create_checkout', () => {
  it('from line items: one quote, with a buyer and a destination as without', async () => {
    const client = gw.client('rest');
    expect((await quotesOf(() => client.create({ line_items: [line('bouquet_roses', 2)] }))).quotes).toBe(1);
    const shipping = { methods: [{ type: 'shipping', destinations: [CHICAGO] }] };
    const full = await quotesOf(() => client.create({ line_items: [line('pot_ceramic')], buyer: BUYER, fulfillment: shipping }));
    expect(full.reply.body.fulfillment.methods[0].groups).toHaveLength(1);
    expect(full.quotes).toBe(1);
  });

  it('from a cart: one quote; from the same cart again (converted): one quote for the open checkout it answers with', async () => {
    const cart = (await gw.carts('rest').create({ line_items: [line('pot_ceramic', 2)] })).body;
    const client = gw.client('mcp');
    const first = await quotesOf(() => client.create({ cart_id: cart.id }));
    expect(first.quotes).toBe(1);
    const again = await quotesOf(() => client.create({ cart_id: cart.id, line_items: [] }));
    expect(again.reply.body.id).toBe(first.reply.body.id);
    expect(again.quotes).toBe(1);
  });

  it('two conversions of one cart at once: one quote each, the loser answering with the winner', async () => {
    const cart = (await gw.carts('rest').create({ line_items: [line('bouquet_tulips')] })).body;
    const client = gw.client('rest');
    counter.together = 2;
    const { quotes, reply } = await quotesOf(() => Promise.all([client.create({ cart_id: cart.id }), client.create({ cart_id: cart.id })]));
    expect(reply.map((r) => r.status).sort()).toEqual([200, 201]);
    expect(reply[0].body.id).toBe(reply[1].body.id);
    expect(reply[0].body.totals).toEqual(reply[1].body.totals);
    expect(quotes).toBe(2);
  });
});

describe('update_checkout and get_checkout', () => {
  it('one quote per update and per get of an open session, none for a get once completed', async () => {
    const client = gw.client('rest');
    const created = (await client.create({ line_items: [line('bouquet_roses', 2)] })).body;
    const lines = linesOf(created);
    expect((await quotesOf(() => client.update(created.id, { line_items: lines, buyer: BUYER }))).quotes).toBe(1);
    const shipping = { type: 'shipping', destinations: [CHICAGO] };
    const withDestination = await quotesOf(() =>
      client.update(created.id, { line_items: lines, buyer: BUYER, fulfillment: { methods: [shipping] } }),
    );
    expect(withDestination.quotes).toBe(1);
    const method = withDestination.reply.body.fulfillment.methods[0];
    const group = method.groups[0];
    const chosen = { ...shipping, id: method.id, groups: [{ id: group.id, selected_option_id: group.options[0].id }] };
    const ready = await quotesOf(() => client.update(created.id, { line_items: lines, buyer: BUYER, fulfillment: { methods: [chosen] } }));
    expect(ready.reply.body.status).toBe('ready_for_complete');
    expect(ready.quotes).toBe(1);
    expect((await quotesOf(() => client.get(created.id))).quotes).toBe(1);

    expect((await client.complete(created.id, pay('success_token'))).body.status).toBe('completed');
    const completed = await quotesOf(() => client.get(created.id));
    expect(completed.reply.body.status).toBe('completed');
    expect(completed.quotes).toBe(0);
  });

  it('an option sent without its group takes one more quote, on create and on update (its group exists only after the first)', async () => {
    const client = gw.client('rest');
    const discovered = { type: 'pickup', selected_destination_id: 'loop', groups: [{ selected_option_id: 'pickup-loop' }] };
    const created = await quotesOf(() =>
      client.create({ line_items: [line('bouquet_roses')], buyer: BUYER, fulfillment: { methods: [discovered] } }),
    );
    expect(created.reply.body.status).toBe('ready_for_complete');
    expect(created.quotes).toBe(2);
    const { ready } = await walkToReady(client, [line('pot_ceramic')]);
    const updated = await quotesOf(() =>
      client.update(ready.id, { line_items: linesOf(ready), buyer: BUYER, fulfillment: { methods: [discovered] } }),
    );
    expect(updated.reply.body.fulfillment.methods[0].groups[0].selected_option_id).toBe('pickup-loop');
    expect(updated.quotes).toBe(2);
  });
});
