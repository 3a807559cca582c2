import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CART_TTL_SECONDS,
  cartGateway,
  LINKS,
  line,
  NO_DISCOUNT,
  STOREFRONT,
  total,
  type CartGateway,
  type Transport,
} from './cart-gateway.js';

let gw: CartGateway;
beforeAll(async () => {
  gw = await cartGateway();
});
afterAll(() => gw.close());

const ID = /^li_[A-Za-z0-9_-]{22}$/;
const messageCodes = (body: any) => (body.messages ?? []).map((m: any) => [m.code, m.path]);

describe.each<Transport>(['rest', 'mcp'])('cart over %s', (transport) => {
  const client = () => gw.client(transport);

  it('creates a cart priced by the store, whatever item data the request claims', async () => {
    const reply = await client().create({
      line_items: [
        { item: { id: 'bouquet_roses', title: 'Free roses', price: 1 }, quantity: 2, gift_wrap: true },
        line('florist_tee_m_green'),
      ],
      note_to_seller: 'extra members are tolerated',
    });
    if (transport === 'rest') expect(reply.status).toBe(201);
    const cart = reply.body;
    expect(cart.id).toMatch(/^cart_[A-Za-z0-9_-]{22}$/);
    expect(cart.line_items.map((l: any) => l.id)).toEqual([expect.stringMatching(ID), expect.stringMatching(ID)]);
    expect(new Set(cart.line_items.map((l: any) => l.id)).size).toBe(2);
    expect(cart.line_items.map((l: any) => [l.item, l.quantity, l.totals])).toEqual([
      [
        { id: 'bouquet_roses', title: 'Bouquet of Red Roses', price: 3500, image_url: 'https://flowers.example/store/images/roses.svg' },
        2,
        [
          { type: 'subtotal', amount: 7000 },
          { type: 'total', amount: 7000 },
        ],
      ],
      [
        {
          id: 'florist_tee_m_green',
          title: 'Florist Tee - M / Green',
          price: 2400,
          image_url: 'https://flowers.example/store/images/florist-tee.svg',
        },
        1,
        [
          { type: 'subtotal', amount: 2400 },
          { type: 'total', amount: 2400 },
        ],
      ],
    ]);
    expect(cart.currency).toBe('USD');
    expect(cart.totals).toEqual([
      { type: 'subtotal', amount: 9400 },
      { type: 'total', amount: 9400 },
    ]);
    expect(cart.links).toEqual(LINKS);
    // The store's page for this cart, from the adapter, carrying the cart id as its reference.
    expect(cart.continue_url).toBe(`${STOREFRONT}/cart/bouquet_roses:2,florist_tee_m_green:1?ref=${cart.id}`);
    expect(cart.expires_at).toBe(new Date(gw.clock.now + CART_TTL_SECONDS * 1000).toISOString());
    // Neither shipping nor tax can be priced for a cart without a location: the totals say so.
    expect(cart.messages).toEqual([
      {
        type: 'info',
        code: 'estimated_totals',
        path: '$.totals',
        content: expect.stringMatching(/shipping .* tax needs the buyer's country and region/),
      },
    ]);
  });

  it('estimates tax from the buyer location in context, and says only shipping is left out', async () => {
    const { body } = await client().create({
      line_items: [line('bouquet_roses', 2)],
      context: { address_country: 'us', address_region: 'US-IL', postal_code: '60601' },
    });
    expect(body.totals).toEqual([
      { type: 'subtotal', amount: 7000 },
      { type: 'tax', amount: 438 }, // 6.25% Illinois sales tax
      { type: 'total', amount: 7438 },
    ]);
    expect(body.context).toEqual({ address_country: 'us', address_region: 'US-IL', postal_code: '60601' });
    expect(body.messages[0].content).toMatch(/shipping/);
    expect(body.messages[0].content).not.toMatch(/tax/);
    // A country with regional rules and no region: tax is unknown, not guessed as 0.
    const vague = await client().create({
      line_items: [line('bouquet_roses', 2)],
      context: { address_country: 'US', address_region: 'Illinois' },
    });
    expect(total(vague.body.totals, 'tax')).toBeUndefined();
    expect(vague.body.messages[0].content).toMatch(/tax/);
  });

  it('prices in the store currency and says so when context asks for one it does not sell in', async () => {
    const usd = await client().create({ line_items: [line('pot_ceramic')], context: { currency: 'USD' } });
    expect(usd.body.currency).toBe('USD');
    expect(messageCodes(usd.body)).not.toContainEqual(['currency_not_supported', '$.context.currency']);
    const eur = await client().create({ line_items: [line('pot_ceramic')], context: { currency: 'EUR' } });
    expect(eur.body.currency).toBe('USD');
    expect(eur.body.messages).toContainEqual({
      type: 'info',
      code: 'currency_not_supported',
      path: '$.context.currency',
      content: 'This store does not sell in EUR; prices are in USD.',
    });
  });

  it('reads the cart back as created', async () => {
    const created = (
      await client().create({ line_items: [line('bouquet_tulips', 1), line('ebook_flower_care', 2)], buyer: { email: 'ann@example.com' } })
    ).body;
    const read = await client().get(created.id);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created);
  });

  it('replaces the lines on update, keeping line ids by id or by item, and refreshes the expiry', async () => {
    const created = (await client().create({ line_items: [line('bouquet_roses', 1), line('pot_ceramic', 1), line('bouquet_tulips', 1)] }))
      .body;
    const [roses, pot, tulips] = created.line_items.map((l: any) => l.id);
    gw.clock.now += 10 * 60_000;
    const updated = await client().update(created.id, {
      line_items: [
        line('pot_ceramic', 3),
        line('orchid_white', 1),
        line('bouquet_sunflowers', 2, roses),
        line('bouquet_tulips', 1, 'li_not_in_this_cart'),
      ],
    });
    expect(updated.status).toBe(200);
    const ids = updated.body.line_items.map((l: any) => l.id);
    expect(ids[0]).toBe(pot); // same item, no id: the existing line's id
    expect(ids[1]).toMatch(ID);
    expect([roses, pot, tulips]).not.toContain(ids[1]); // a new item: a new id
    expect(ids[2]).toBe(roses); // a named line keeps its id even with another item
    expect(ids[3]).toBe(tulips); // an unknown id is ignored: matched by item instead
    expect(updated.body.line_items.map((l: any) => [l.item.id, l.quantity])).toEqual([
      ['pot_ceramic', 3],
      ['orchid_white', 1],
      ['bouquet_sunflowers', 2],
      ['bouquet_tulips', 1],
    ]);
    expect(updated.body.expires_at).toBe(new Date(gw.clock.now + CART_TTL_SECONDS * 1000).toISOString());
    expect((await client().get(created.id)).body).toEqual(updated.body);
  });

  it('keeps context and buyer an update leaves out, and replaces those it sends', async () => {
    const created = (
      await client().create({
        line_items: [line('pot_ceramic')],
        context: { address_country: 'US', address_region: 'NY' },
        buyer: { first_name: 'Ann' },
      })
    ).body;
    const kept = (await client().update(created.id, { line_items: [line('pot_ceramic', 2)] })).body;
    expect([kept.context, kept.buyer]).toEqual([created.context, created.buyer]);
    expect(total(kept.totals, 'tax')).toBe(266); // 8.875% of 3000
    const replaced = (
      await client().update(created.id, { line_items: [line('pot_ceramic', 2)], context: { address_country: 'US', address_region: 'KS' } })
    ).body;
    expect(replaced.context).toEqual({ address_country: 'US', address_region: 'KS' });
    expect(total(replaced.totals, 'tax')).toBe(195); // 6.5% of 3000
  });

  it('an update may empty the cart', async () => {
    const created = (await client().create({ line_items: [line('pot_ceramic')] })).body;
    const emptied = (await client().update(created.id, { line_items: [] })).body;
    expect(emptied.line_items).toEqual([]);
    expect(emptied.totals).toEqual([
      { type: 'subtotal', amount: 0 },
      { type: 'fulfillment', amount: 0 },
      { type: 'tax', amount: 0 },
      { type: 'total', amount: 0 },
    ]);
    expect(emptied.messages).toBeUndefined(); // nothing left to estimate
  });

  it('reports line problems with the path of the line and keeps the rest of the cart usable', async () => {
    const reply = await client().create({
      line_items: [
        line('no_such_flower', 1),
        line('bouquet_roses', 2),
        line('pot_ceramic', 0),
        line('vase_glass', -3),
        line('orchid_white', 801),
        line('gardenias', 1),
        line('wreath_holiday', 1),
      ],
    });
    expect(reply.body.proto.status).toBe('success');
    expect(reply.body.messages.filter((m: any) => m.type === 'error')).toEqual([
      {
        type: 'error',
        code: 'not_found',
        severity: 'recoverable',
        path: '$.line_items[0]',
        content: 'Item "no_such_flower" does not exist in this store.',
      },
      {
        type: 'error',
        code: 'invalid_quantity',
        severity: 'recoverable',
        path: '$.line_items[2].quantity',
        content: 'Item "pot_ceramic" needs a quantity of at least 1.',
      },
      {
        type: 'error',
        code: 'invalid_quantity',
        severity: 'recoverable',
        path: '$.line_items[3].quantity',
        content: 'Item "vase_glass" needs a quantity of at least 1.',
      },
      {
        type: 'error',
        code: 'out_of_stock',
        severity: 'recoverable',
        path: '$.line_items[4].quantity',
        content: 'Only 800 of "White Orchid" can be bought now; lower the quantity before checkout.',
      },
      {
        type: 'error',
        code: 'out_of_stock',
        severity: 'recoverable',
        path: '$.line_items[5]',
        content: 'Item "gardenias" is out of stock.',
      },
      {
        type: 'error',
        code: 'out_of_stock',
        severity: 'recoverable',
        path: '$.line_items[6]',
        content: 'Item "wreath_holiday" is no longer sold.',
      },
    ]);
    // Lines that cannot be priced are not kept; a line above stock stays at the quantity asked for.
    expect(reply.body.line_items.map((l: any) => [l.item.id, l.quantity])).toEqual([
      ['bouquet_roses', 2],
      ['orchid_white', 801],
    ]);
    expect(total(reply.body.totals, 'subtotal')).toBe(7000 + 801 * 4500);
    const fixed = await client().update(reply.body.id, {
      line_items: reply.body.line_items.map((l: any) => ({ id: l.id, item: { id: l.item.id }, quantity: Math.min(l.quantity, 800) })),
    });
    expect(fixed.body.messages.filter((m: any) => m.type === 'error')).toEqual([]);
    expect(fixed.body.line_items.map((l: any) => l.id)).toEqual(reply.body.line_items.map((l: any) => l.id));
  });

  it('creates no cart when every item is out of stock: out_of_stock, unrecoverable, with a continue_url to the store', async () => {
    const reply = await client().create({ line_items: [line('gardenias', 1), line('florist_tee_l_white', 2), line('wreath_holiday', 1)] });
    expect(reply.status).toBe(200);
    expect(reply.body.proto.status).toBe('error');
    expect(reply.body.id).toBeUndefined();
    expect(reply.body.messages.map((m: any) => [m.type, m.code, m.severity, m.path])).toEqual([
      ['error', 'out_of_stock', 'unrecoverable', '$.line_items[0]'],
      ['error', 'out_of_stock', 'unrecoverable', '$.line_items[1]'],
      ['error', 'out_of_stock', 'unrecoverable', '$.line_items[2]'],
    ]);
    expect(reply.body.continue_url).toBe(STOREFRONT);
  });

  it('creates no cart when no line can be bought for other reasons, with recoverable messages', async () => {
    const reply = await client().create({ line_items: [line('no_such_flower', 1), line('gardenias', 0)] });
    expect(reply.body.proto.status).toBe('error');
    expect(reply.body.id).toBeUndefined();
    expect(reply.body.messages.map((m: any) => [m.code, m.severity, m.path])).toEqual([
      ['not_found', 'recoverable', '$.line_items[0]'],
      ['invalid_quantity', 'recoverable', '$.line_items[1].quantity'],
    ]);
    expect(reply.body.continue_url).toBe(STOREFRONT);
  });

  it('answers a missing cart with not_found, unrecoverable, and a continue_url', async () => {
    for (const reply of [
      await client().get('cart_missing'),
      await client().update('cart_missing', { line_items: [line('pot_ceramic')] }),
      await client().cancel('cart_missing'),
    ]) {
      expect(reply.status).toBe(200);
      expect(reply.body).toMatchObject({
        proto: { status: 'error' },
        messages: [{ type: 'error', code: 'not_found', severity: 'unrecoverable', content: expect.any(String) }],
        continue_url: STOREFRONT,
      });
    }
  });

  it('cancels a cart: answers with it ending now, then it is gone for reads, updates and cancels', async () => {
    const created = (await client().create({ line_items: [line('bouquet_sunflowers', 2)] })).body;
    gw.clock.now += 60_000;
    const canceled = await client().cancel(created.id);
    expect(canceled.status).toBe(200);
    expect({ ...canceled.body, expires_at: created.expires_at }).toEqual(created);
    expect(canceled.body.expires_at).toBe(new Date(gw.clock.now).toISOString());
    for (const reply of [
      await client().get(created.id),
      await client().update(created.id, { line_items: [line('pot_ceramic')] }),
      await client().cancel(created.id),
    ]) {
      expect(reply.body.messages).toEqual([expect.objectContaining({ code: 'not_found', severity: 'unrecoverable' })]);
    }
  });

  it("answers not_found for another caller's cart, and leaves the cart untouched", async () => {
    const created = (await client().create({ line_items: [line('pot_ceramic', 2)] })).body;
    const stranger = gw.client(transport, NO_DISCOUNT);
    const missing = (await stranger.get('cart_missing')).body;
    for (const reply of [
      await stranger.get(created.id),
      await stranger.update(created.id, { line_items: [line('orchid_white')] }),
      await stranger.cancel(created.id),
    ]) {
      expect(reply.body).toEqual(missing);
    }
    expect((await client().get(created.id)).body).toEqual(created);
  });
});

describe('cart transport rules', () => {
  it('REST writes need Idempotency-Key and Request-Id; reads need Request-Id', async () => {
    const rest = gw.client('rest');
    const created = (await rest.create({ line_items: [line('pot_ceramic')] })).body;
    for (const reply of [
      await rest.create({ line_items: [line('pot_ceramic')] }, { headers: { 'idempotency-key': undefined } }),
      await rest.update(created.id, { line_items: [line('pot_ceramic')] }, { headers: { 'idempotency-key': undefined } }),
      await rest.cancel(created.id, { headers: { 'idempotency-key': undefined } }),
    ]) {
      expect([reply.status, reply.body.code]).toEqual([400, 'missing_idempotency_key']);
    }
    const noRequestId = await rest.create({ line_items: [line('pot_ceramic')] }, { headers: { 'request-id': undefined } });
    expect([noRequestId.status, noRequestId.body.code]).toEqual([400, 'missing_request_id']);
    const read = await gw.app.inject({ method: 'GET', url: `/carts/${created.id}`, headers: gw.headers({ 'request-id': undefined }) });
    expect([read.statusCode, read.json().code]).toEqual([400, 'missing_request_id']);
    expect((await rest.get(created.id)).body.line_items).toHaveLength(1);
  });

  it('malformed payloads are 400 naming the path, on REST and MCP alike', async () => {
    const rest = gw.client('rest');
    const mcp = gw.client('mcp');
    const cases: Array<[unknown, string]> = [
      [{}, '$.line_items is required'],
      [{ line_items: [] }, '$.line_items must NOT have fewer than 1 items'],
      [{ line_items: [{ item: {}, quantity: 1 }] }, '$.line_items[0].item.id is required'],
      [{ line_items: [{ item: { id: 'pot_ceramic' }, quantity: '2' }] }, '$.line_items[0].quantity must be integer'],
      [{ line_items: [{ item: { id: 'pot_ceramic' }, quantity: 1.5 }] }, '$.line_items[0].quantity must be integer'],
      [{ line_items: [line('pot_ceramic')], discounts: { codes: 'SAVE' } }, '$.discounts.codes must be array'],
      [{ line_items: [line('pot_ceramic')], context: { currency: 'dollars' } }, expect.stringContaining('$.context.currency')],
    ];
    for (const [body, content] of cases) {
      const restReply = await rest.create(body);
      expect([restReply.status, restReply.body]).toEqual([400, { code: 'invalid_request', content }]);
      const mcpReply = await mcp.create(body);
      expect(mcpReply.error).toMatchObject({ code: -32602, message: content, data: { code: 'invalid_request', http_status: 400 } });
    }
  });

  it('an update body may repeat the path id on REST, never another one; the MCP cart payload never carries an id', async () => {
    const rest = gw.client('rest');
    const created = (await rest.create({ line_items: [line('pot_ceramic')] })).body;
    expect((await rest.update(created.id, { id: created.id, line_items: [line('pot_ceramic', 2)] })).body.line_items[0].quantity).toBe(2);
    expect((await rest.update(created.id, { id: 'cart_other', line_items: [line('pot_ceramic', 3)] })).status).toBe(400);
    const mcp = await gw.client('mcp').update(created.id, { id: created.id, line_items: [line('pot_ceramic', 3)] });
    expect(mcp.error).toMatchObject({ code: -32602, data: { code: 'invalid_request' } });
    expect((await rest.get(created.id)).body.line_items[0].quantity).toBe(2);
  });

  it('lists the four cart tools with the argument shapes of the spec', async () => {
    const res = await gw.app.inject({
      method: 'POST',
      url: '/mcp',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      payload: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    const tools = Object.fromEntries(res.json().result.tools.map((t: any) => [t.name, t.inputSchema.required]));
    expect(tools).toMatchObject({
      create_cart: ['meta', 'cart'],
      get_cart: ['meta', 'id'],
      update_cart: ['meta', 'id', 'cart'],
      cancel_cart: ['meta', 'id'],
    });
  });
});
