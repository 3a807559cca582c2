/**
 * The checkout an agent walks through, over REST and over MCP: create, add the buyer, ask for a
 * destination, pick an option, complete, and the order; the messages that guide it on the way,
 * the session's shape, expiry and isolation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadOrderRecord } from '../../../src/capabilities/order/order-record.js';
import { orderWebhookQueue } from '../../../src/capabilities/order/outbox.js';
import { platformProfile } from '../../helpers/platform.js';
import {
  BUYER,
  CHECKOUT_TTL_SECONDS,
  checkoutGateway,
  codes,
  expectConsistentTotals,
  line,
  LINKS,
  pay,
  PROFILES,
  STOREFRONT,
  total,
  walkToReady,
  WEBHOOK_URL,
  type CheckoutGateway,
  type Transport,
} from './checkout-gateway.js';

let gw: CheckoutGateway;
beforeAll(async () => {
  gw = await checkoutGateway();
});
afterAll(() => gw.close());

const ORDER = /^ord_[0-9a-f]{16}$/;

describe.each<Transport>(['rest', 'mcp'])('checkout over %s', (transport) => {
  const client = () => gw.client(transport);

  it('walks create -> buyer -> destination -> option -> ready_for_complete -> complete -> order', async () => {
    const lines = [line('bouquet_roses', 2), line('pot_ceramic'), line('ebook_flower_care')];
    const created = await client().create({ line_items: lines });
    if (transport === 'rest') expect(created.status).toBe(201);
    const { created: start, withBuyer, withDestination, ready } = await walkToReady(client(), lines);

    expect(start.id).toMatch(/^chk_[A-Za-z0-9_-]{22}$/);
    expect(start.status).toBe('incomplete');
    expect(codes(start)).toEqual([
      ['missing', '$.buyer.email'],
      ['missing', '$.fulfillment.methods'],
    ]);
    expect(start.fulfillment.methods).toEqual([]);
    // Free shipping on roses reduces nothing until a shipping option is chosen: not listed yet.
    expect(start.discounts.applied).toEqual([]);
    // The digital e-book needs no method: the physical lines can ship or be picked up.
    const physical = start.line_items.slice(0, 2).map((l: any) => l.id);
    expect(start.fulfillment.available_methods.map((m: any) => [m.type, m.line_item_ids, m.fulfillable_on])).toEqual([
      ['shipping', physical, 'now'],
      ['pickup', physical, 'now'],
    ]);
    for (const m of start.fulfillment.available_methods) expect(m.description).toMatch(/^[A-Z].*\.$/);
    expect(start.payment).toEqual({ instruments: [] });
    expect(start.links).toEqual(LINKS);
    expect(start.expires_at).toBe(new Date(gw.clock.now + CHECKOUT_TTL_SECONDS * 1000).toISOString());

    expect(codes(withBuyer)).toEqual([['missing', '$.fulfillment.methods']]);
    expect(withBuyer.buyer).toEqual(BUYER);

    const method = withDestination.fulfillment.methods[0];
    expect(method).toMatchObject({ id: 'shipping_1', type: 'shipping', line_item_ids: physical });
    expect(method.destinations).toEqual([
      expect.objectContaining({ id: expect.stringMatching(/^dest_/), address_country: 'US', address_region: 'IL' }),
    ]);
    expect(method.selected_destination_id).toBe(method.destinations[0].id);
    expect(method.groups.map((g: any) => [g.line_item_ids, g.selected_option_id])).toEqual([[physical, null]]);
    expect(codes(withDestination)).toEqual([['missing', '$.fulfillment.methods[0].groups[0].selected_option_id']]);
    expect(withDestination.discounts.applied).toEqual([]);

    expect(ready.status).toBe('ready_for_complete');
    expect(ready.messages).toBeUndefined();
    expect(ready.fulfillment.methods[0].groups[0].selected_option_id).toBe('std-ship');
    // Free shipping on roses: the promotion takes the selected option's price.
    expect(ready.totals).toEqual([
      { type: 'subtotal', amount: 9400 },
      { type: 'discount', amount: -500 },
      { type: 'fulfillment', amount: 500 },
      { type: 'tax', amount: 588 },
      { type: 'total', amount: 9988 },
    ]);
    expect(ready.discounts.applied).toEqual([
      expect.objectContaining({
        title: 'Free Shipping on Rose Bouquets',
        amount: 500,
        automatic: true,
        allocations: [{ path: '$.fulfillment.methods[0].groups[0]', amount: 500 }],
      }),
    ]);
    expectConsistentTotals(ready);

    const completed = await client().complete(ready.id, pay('success_token'));
    expect(completed.status).toBe(200);
    expect(completed.body.proto.status).toBe('success');
    expect(completed.body.status).toBe('completed');
    // The demo store has no order pages: the permalink is the gateway's own, unguessable order page.
    const orderId = completed.body.order.id as string;
    expect(completed.body.order).toEqual({
      id: expect.stringMatching(ORDER),
      permalink_url: expect.stringMatching(new RegExp(`^https://shop\\.example/order-status/${orderId}\\?t=[\\w-]{22}$`)),
    });
    const page = await gw.app.inject({ method: 'GET', url: completed.body.order.permalink_url.replace('https://shop.example', '') });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain(orderId);
    expect(completed.body.totals).toEqual(ready.totals);
    expect(completed.body.payment.instruments).toEqual([
      { id: 'instr_1', handler_id: 'sandbox', type: 'card', selected: true, display: { brand: 'Visa', last_digits: '1234' } },
    ]);
    expect(completed.body.signals).toEqual(pay('success_token').signals);
    expect(completed.body.continue_url).toBeUndefined();

    const read = (await client().get(ready.id)).body;
    expect(read).toEqual(completed.body);
    const order = await gw.store.get<{ snapshot: { totals: { total: number } } }>(`adapter:memory:shop:order:${completed.body.order.id}`);
    expect(order?.value.snapshot.totals.total).toBe(9988);
  });

  it('lists what is still missing and drops each message once supplied', async () => {
    const created = (await client().create({ line_items: [line('pot_ceramic')], buyer: { first_name: 'Ann' } })).body;
    const lines = [{ id: created.line_items[0].id, item: { id: 'pot_ceramic' } }];
    expect(codes(created)).toEqual([
      ['missing', '$.buyer.email'],
      ['missing', '$.fulfillment.methods'],
    ]);
    const noDestination = (
      await client().update(created.id, { line_items: lines, buyer: BUYER, fulfillment: { methods: [{ type: 'shipping' }] } })
    ).body;
    expect(codes(noDestination)).toEqual([['missing', '$.fulfillment.methods[0].destinations']]);
    const two = {
      type: 'shipping',
      destinations: [
        { address_country: 'US', address_region: 'NY', postal_code: '10012' },
        { address_country: 'United States', address_region: 'US-IL' },
      ],
    };
    const unselected = (await client().update(created.id, { line_items: lines, buyer: BUYER, fulfillment: { methods: [two] } })).body;
    expect(codes(unselected)).toEqual([['missing', '$.fulfillment.methods[0].selected_destination_id']]);
    // Update replaces everything: what is not resent (the buyer) is dropped again.
    const dropped = (await client().update(created.id, { line_items: lines })).body;
    expect(dropped.buyer).toBeUndefined();
    expect(dropped.fulfillment.methods).toEqual([]);
    expect(codes(dropped)).toEqual([
      ['missing', '$.buyer.email'],
      ['missing', '$.fulfillment.methods'],
    ]);
  });

  it('a digital-only checkout needs the buyer location for tax, then no fulfillment at all', async () => {
    const created = (await client().create({ line_items: [line('ebook_flower_care')], buyer: BUYER })).body;
    expect(created.fulfillment.available_methods).toEqual([]);
    expect(codes(created)).toEqual([['missing', '$.context.address_country']]);
    const lines = [{ id: created.line_items[0].id, item: { id: 'ebook_flower_care' } }];
    const ready = (
      await client().update(created.id, { line_items: lines, buyer: BUYER, context: { address_country: 'US', address_region: 'IL' } })
    ).body;
    expect(ready.status).toBe('ready_for_complete');
    expect(total(ready.totals, 'tax')).toBe(56);
    const done = (await client().complete(ready.id, pay('success_token'))).body;
    expect(done.status).toBe('completed');
  });
});

describe('sessions', () => {
  it('create with every item out of stock: HTTP 200, out_of_stock, continue_url and no session', async () => {
    const reply = await gw.client('rest').create({ line_items: [line('gardenias'), line('wreath_holiday', 2)] });
    expect(reply.status).toBe(200);
    expect(reply.body.proto.status).toBe('error');
    expect(reply.body.id).toBeUndefined();
    expect(reply.body.messages.map((m: any) => [m.code, m.severity, m.path])).toEqual([
      ['out_of_stock', 'unrecoverable', '$.line_items[0]'],
      ['out_of_stock', 'unrecoverable', '$.line_items[1]'],
    ]);
    expect(reply.body.continue_url).toBe(STOREFRONT);
  });

  it('an eligibility claim the store does not recognize is ignored with a warning; the checkout goes on', async () => {
    const created = (
      await gw
        .client('rest')
        .create({ line_items: [line('pot_ceramic')], context: { eligibility: ['com.example.student', 'com.example.veteran'] } })
    ).body;
    expect(created.proto.status).toBe('success');
    expect(created.messages.filter((m: any) => m.type === 'warning').map((m: any) => [m.code, m.path])).toEqual([
      ['eligibility_not_accepted', '$.context.eligibility[1]'],
    ]);
    expect(created.discounts.applied.map((d: any) => d.eligibility)).toEqual(['com.example.student']);
  });

  it('needs line_items or a cart_id', async () => {
    const reply = await gw.client('rest').create({ buyer: BUYER });
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({ code: 'invalid_request', content: '$ must be a checkout with line_items or a cart_id' });
  });

  it('expires after checkout_ttl_seconds: then not_found, and updates cannot bring it back', async () => {
    const rest = gw.client('rest');
    const created = (await rest.create({ line_items: [line('pot_ceramic')] })).body;
    gw.clock.now += CHECKOUT_TTL_SECONDS * 1000 - 1;
    expect((await rest.get(created.id)).body.status).toBe('incomplete');
    gw.clock.now += 1;
    for (const reply of [
      await rest.get(created.id),
      await rest.update(created.id, { line_items: [line('pot_ceramic')] }),
      await rest.complete(created.id, pay('success_token')),
    ]) {
      expect(reply.body.proto.status).toBe('error');
      expect(reply.body.messages).toEqual([expect.objectContaining({ code: 'not_found', severity: 'unrecoverable' })]);
    }
  });

  it("another platform's checkout is not_found, like an unknown id", async () => {
    const created = (await gw.client('rest').create({ line_items: [line('pot_ceramic')] })).body;
    const stranger = gw.client('mcp', PROFILES.multiGroup);
    const theirs = await stranger.get(created.id);
    const unknown = await stranger.get('chk_unknown');
    expect(theirs.body).toEqual(unknown.body);
    expect(theirs.body.messages[0].code).toBe('not_found');
    expect((await stranger.cancel(created.id)).body.messages[0].code).toBe('not_found');
    expect((await gw.client('rest').get(created.id)).body.status).toBe('incomplete');
  });

  it('saves the order record with the platform, its order webhook URL and the checkout', async () => {
    const client = gw.client('rest', PROFILES.withWebhook);
    const { ready } = await walkToReady(client, [line('pot_ceramic')]);
    const done = (await client.complete(ready.id, pay('success_token'))).body;
    const record = await loadOrderRecord({ store: gw.store, tenant: { id: 'shop' } as never }, done.order.id);
    expect(record).toEqual({
      orderId: done.order.id,
      checkoutId: ready.id,
      profileUrl: gw.platform.url(PROFILES.withWebhook),
      webhookUrl: WEBHOOK_URL,
      placedAt: gw.clock.now,
    });
  });

  const PRIVATE = 'private, link-local and reserved addresses are not allowed';
  const FIELD = 'config.webhook_url of dev.proto.shopping.order in your profile';
  it.each([
    ['file:///etc/passwd', 'the webhook URL must use https'],
    ['https://169.254.169.254/latest/meta-data', `the webhook URL's address is refused: ${PRIVATE}`],
    ['https://10.0.0.7/hooks', `the webhook URL's address is refused: ${PRIVATE}`],
    ['http://agent.example/hooks', 'the webhook URL must use https'],
  ])('warns the platform whose webhook_url is %s while it builds the checkout, and records no webhook URL', async (url, problem) => {
    const path = `/profiles/webhook-${encodeURIComponent(url)}`;
    const profile = platformProfile();
    const order = { version: '2026-04-08', config: { webhook_url: url } };
    profile.proto.capabilities['dev.proto.shopping.order'] = [order];
    gw.platform.serve(path, profile);
    const client = gw.client('rest', path);
    const outbox = orderWebhookQueue(gw.store, 'shop');
    // Queued plus dead: other tests' events may move from one to the other meanwhile, but none is added.
    const events = async () => Object.values(await outbox.depth()).reduce((sum, n) => sum + n, 0);
    const before = await events();
    const { created, ready } = await walkToReady(client, [line('pot_ceramic')]);
    const warning = {
      type: 'warning',
      code: 'invalid_webhook_url',
      content: `Order webhooks will not be sent for orders placed now: ${FIELD} is refused (${problem}).`,
    };
    expect(created.messages).toContainEqual(warning);
    expect(ready.messages).toContainEqual(warning);
    const done = (await client.complete(ready.id, pay('success_token'))).body;
    expect(done.status).toBe('completed');
    const record = await loadOrderRecord({ store: gw.store, tenant: { id: 'shop' } as never }, done.order.id);
    expect(record).not.toHaveProperty('webhookUrl');
    expect(await events()).toBe(before);
  });

  it('lists the five checkout tools with the argument shapes: complete_checkout requires an idempotency key', async () => {
    const res = await gw.app.inject({
      method: 'POST',
      url: '/mcp',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      payload: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    const tools = Object.fromEntries(res.json().result.tools.map((t: any) => [t.name, t.inputSchema.required]));
    expect(tools).toMatchObject({
      create_checkout: ['meta', 'checkout'],
      get_checkout: ['meta', 'id'],
      update_checkout: ['meta', 'id', 'checkout'],
      complete_checkout: ['meta', 'id', 'checkout'],
      cancel_checkout: ['meta', 'id'],
    });
    const created = (await gw.client('mcp').create({ line_items: [line('pot_ceramic')] })).body;
    const unkeyed = await gw.app.inject({
      method: 'POST',
      url: '/mcp',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      payload: JSON.stringify({
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'complete_checkout', arguments: { meta: gw.meta(), id: created.id, checkout: {} } },
      }),
    });
    expect(unkeyed.json().error).toMatchObject({ code: -32602, data: { code: 'missing_idempotency_key' } });
  });
});

describe('MCP leniency where REST is lenient', () => {
  const call = (name: string, args: Record<string, unknown>) =>
    gw.app.inject({
      method: 'POST',
      url: '/mcp',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      payload: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: { meta: gw.meta(), ...args } } }),
    });

  it('a checkout.id in the payload (deprecated in the body) is ignored, as REST ignores the body id', async () => {
    const created = (await call('create_checkout', { checkout: { id: 'chk_mine', line_items: [line('pot_ceramic')] } })).json().result
      .structuredContent;
    expect(created.proto.status).toBe('success');
    expect(created.id).not.toBe('chk_mine');
    const lines = created.line_items.map((l: any) => ({ id: l.id, item: { id: l.item.id }, quantity: 2 }));
    const updated = (await call('update_checkout', { id: created.id, checkout: { id: created.id, line_items: lines } })).json().result
      .structuredContent;
    expect([updated.id, updated.line_items[0].quantity]).toEqual([created.id, 2]);
  });

  it('a checkout.id that contradicts arguments.id is refused, as REST refuses a body id that contradicts the path', async () => {
    const created = (await call('create_checkout', { checkout: { line_items: [line('pot_ceramic')] } })).json().result.structuredContent;
    const res = (await call('update_checkout', { id: created.id, checkout: { id: 'chk_other', line_items: [] } })).json();
    expect(res.error).toMatchObject({ code: -32602, data: { code: 'invalid_request' } });
    const rest = await gw.app.inject({
      method: 'PUT',
      url: `/checkout-sessions/${created.id}`,
      headers: gw.headers(),
      payload: JSON.stringify({ id: 'chk_other', line_items: [] }),
    });
    expect([rest.statusCode, rest.json().code]).toEqual([400, 'invalid_request']);
  });
});
