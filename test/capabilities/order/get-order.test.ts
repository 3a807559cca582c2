/**
 * get_order over REST and MCP (spec part 2 §4.1): the full current-state order, and who may read
 * it: platform credentials reach the orders that platform placed; a buyer token with
 * dev.proto.shopping.order:read reaches that buyer's orders from any platform. Everyone else gets
 * `unauthorized`, unknown orders `not_found`, both unrecoverable business outcomes.
 */
import { createHash } from 'node:crypto';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderGateway, SIMULATION_SECRET, type OrderGateway } from '../../helpers/order-gateway.js';
import { startPlatform, type PlatformServer } from '../../helpers/platform.js';
import { getOrder, type Transport } from './order-client.js';

const KEY_A = 'pk_platform_a_3Vb7Qx9Lm2Zr8Tw1';
const KEY_B = 'pk_platform_b_8Hn4Kd2Pw6Ys0Jc5';
const ISSUER = 'https://id.flowers.example';
const AUDIENCE = 'https://shop.example';
const sha256hex = (text: string) => createHash('sha256').update(text).digest('hex');

let gw: OrderGateway;
let platformA: PlatformServer;
let platformB: PlatformServer;
let issuerKey: CryptoKey;

beforeAll(async () => {
  const pair = await generateKeyPair('ES256', { extractable: true });
  issuerKey = pair.privateKey;
  const jwk: JWK = { ...(await exportJWK(pair.publicKey)), kid: 'as-1', alg: 'ES256' };
  platformA = await startPlatform();
  platformB = await startPlatform();
  gw = await orderGateway({
    platform: platformA,
    tenant: {
      auth: {
        api_keys: [
          { sha256: sha256hex(KEY_A), profile: platformA.url() },
          { sha256: sha256hex(KEY_B), profile: platformB.url() },
        ],
        oauth: {
          issuer: ISSUER,
          audience: AUDIENCE,
          jwks: { keys: [jwk] },
          clients: { 'app-a': platformA.url(), 'app-b': platformB.url() },
        },
      },
    },
  });
});
afterAll(async () => {
  await gw.close();
  await platformA.close();
  await platformB.close();
});

const asA = { 'x-api-key': KEY_A };
const asB = { 'x-api-key': KEY_B };

/** A buyer token issued to a platform's OAuth client. */
async function buyer(customerId: string, client: 'app-a' | 'app-b', scope = 'dev.proto.shopping.order:read') {
  const token = await new SignJWT({ client_id: client, scope })
    .setProtectedHeader({ alg: 'ES256', kid: 'as-1' })
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setSubject(customerId)
    .setIssuedAt(Math.floor(gw.clock.now / 1000))
    .setExpirationTime(Math.floor(gw.clock.now / 1000) + 600)
    .sign(issuerKey);
  return { authorization: `Bearer ${token}` };
}

const outcome = (body: any) => body.messages?.map((m: any) => [m.type, m.code, m.severity]);

describe.each<Transport>(['rest', 'mcp'])('get_order over %s', (transport) => {
  it('returns the full current order to the platform that placed it', async () => {
    const orderId = await gw.placeOrder({ checkoutId: `chk_full_${transport}` });
    const { status, body } = await getOrder(gw, transport, orderId, platformA, asA);
    expect(status).toBe(200);
    expect(body).toMatchObject({
      proto: { version: '2026-04-08', status: 'success' },
      id: orderId,
      checkout_id: `chk_full_${transport}`,
      currency: 'USD',
      fulfillment: { events: [] },
      adjustments: [],
    });
    expect(Object.keys(body.proto.capabilities)).toEqual(['dev.proto.shopping.order']);
    expect(body.proto).not.toHaveProperty('payment_handlers');
    expect(body.permalink_url).toMatch(new RegExp(`^https://shop\\.example/order-status/${orderId}\\?t=`));
    // 3 roses at $35, 2 pots at $15, an e-book at $9; standard shipping to Chicago.
    expect(body.line_items.map((l: any) => [l.id, l.item.id, l.item.price, l.quantity, l.status, l.totals])).toEqual([
      [
        'l1',
        'bouquet_roses',
        3500,
        { original: 3, total: 3, fulfilled: 0 },
        'processing',
        [
          { type: 'subtotal', amount: 10500 },
          { type: 'total', amount: 10500 },
        ],
      ],
      [
        'l2',
        'pot_ceramic',
        1500,
        { original: 2, total: 2, fulfilled: 0 },
        'processing',
        [
          { type: 'subtotal', amount: 3000 },
          { type: 'total', amount: 3000 },
        ],
      ],
      [
        'l3',
        'ebook_flower_care',
        900,
        { original: 1, total: 1, fulfilled: 0 },
        'processing',
        [
          { type: 'subtotal', amount: 900 },
          { type: 'total', amount: 900 },
        ],
      ],
    ]);
    // Shipping $5 made free by the store's free-shipping promotion (an order-level discount), tax on the goods.
    expect(body.totals).toEqual([
      { type: 'subtotal', amount: 14400 },
      { type: 'discount', amount: -500 },
      { type: 'fulfillment', amount: 500 },
      { type: 'tax', amount: 900 },
      { type: 'total', amount: 15300 },
    ]);
    expect(body.fulfillment.expectations).toEqual([
      expect.objectContaining({
        id: 'exp_1',
        line_items: [
          { id: 'l1', quantity: 3 },
          { id: 'l2', quantity: 2 },
        ],
        method_type: 'shipping',
        destination: {
          street_address: '123 Main St',
          address_locality: 'Chicago',
          address_region: 'IL',
          address_country: 'US',
          postal_code: '60601',
        },
        fulfillable_on: 'now',
      }),
      expect.objectContaining({ id: 'exp_2', line_items: [{ id: 'l3', quantity: 1 }], method_type: 'digital', destination: {} }),
    ]);
  });

  it('tells another platform `unauthorized`, and an unknown order `not_found`', async () => {
    const orderId = await gw.placeOrder();
    const other = await getOrder(gw, transport, orderId, platformB, asB);
    expect(other.status).toBe(200);
    expect(other.body.proto.status).toBe('error');
    expect(outcome(other.body)).toEqual([['error', 'unauthorized', 'unrecoverable']]);
    expect(other.body).not.toHaveProperty('line_items');

    const unknown = await getOrder(gw, transport, 'ord_0000000000000000', platformA, asA);
    expect(outcome(unknown.body)).toEqual([['error', 'not_found', 'unrecoverable']]);
  });

  it("lets a buyer token read that buyer's orders from any platform, and no one else's", async () => {
    const viaA = await gw.placeOrder({ buyerId: 'cust_7' });
    const viaB = await gw.placeOrder({ buyerId: 'cust_7', profileUrl: platformB.url() });
    const guest = await gw.placeOrder();
    const mine = await buyer('cust_7', 'app-b');
    expect((await getOrder(gw, transport, viaA, platformB, mine)).body.id).toBe(viaA);
    expect((await getOrder(gw, transport, viaB, platformB, mine)).body.id).toBe(viaB);
    // A buyer sees only their own orders, even on the platform that placed the others.
    expect(outcome((await getOrder(gw, transport, guest, platformA, await buyer('cust_7', 'app-a'))).body)).toEqual([
      ['error', 'unauthorized', 'unrecoverable'],
    ]);
    expect(outcome((await getOrder(gw, transport, viaA, platformA, await buyer('cust_8', 'app-a'))).body)).toEqual([
      ['error', 'unauthorized', 'unrecoverable'],
    ]);
    // Platform B's own credentials reach the order it placed, not the buyer's order placed through A.
    expect((await getOrder(gw, transport, viaB, platformB, asB)).body.id).toBe(viaB);
    expect(outcome((await getOrder(gw, transport, viaA, platformB, asB)).body)).toEqual([['error', 'unauthorized', 'unrecoverable']]);
  });

  it('refuses callers without credentials, and buyer tokens without the order:read scope', async () => {
    const orderId = await gw.placeOrder({ buyerId: 'cust_7' });
    const anonymous = await getOrder(gw, transport, orderId, platformA);
    const unscoped = await getOrder(gw, transport, orderId, platformA, await buyer('cust_7', 'app-a', 'dev.proto.shopping.order:manage'));
    if (transport === 'rest') {
      expect([anonymous.status, anonymous.body.code]).toEqual([401, 'authentication_required']);
      expect([unscoped.status, unscoped.body.code]).toEqual([403, 'insufficient_scope']);
    } else {
      expect(anonymous.error?.data?.code).toBe('authentication_required');
      expect(unscoped.error?.data?.code).toBe('insufficient_scope');
    }
  });
});

describe('get_order', () => {
  it('knows nothing of orders the gateway did not place, even when the store has them', async () => {
    const record = await gw.placeInStore(); // placed, but checkout never recorded it
    expect(await gw.adapter.getOrder(record.orderId)).not.toBeNull();
    expect(outcome((await getOrder(gw, 'rest', record.orderId, platformA, asA)).body)).toEqual([['error', 'not_found', 'unrecoverable']]);
  });

  it('answers a malformed id with 400, never a 5xx', async () => {
    const res = await gw.app.inject({
      method: 'GET',
      url: `/orders/${'x'.repeat(201)}`,
      headers: { 'proto-agent': platformA.agent(), 'request-id': 'r1', ...asA },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('invalid_request');
  });

  it('shows every change: events with tracking, signed adjustments, the derived status of each line', async () => {
    const orderId = await gw.placeOrder({
      lines: [
        ['bouquet_roses', 3],
        ['pot_ceramic', 2],
        ['bouquet_tulips', 1],
        ['ebook_flower_care', 1],
      ],
    });
    const simulate = (action: string, body: object) =>
      gw.app.inject({
        method: 'POST',
        url: `/simulate/orders/${orderId}/${action}`,
        headers: { authorization: `Bearer ${SIMULATION_SECRET}` },
        payload: body,
      });
    await simulate('ship', {
      lines: [
        { id: 'l1', quantity: 3 },
        { id: 'l2', quantity: 1 },
      ],
    });
    await simulate('refund', { amount: 3000, lines: [{ id: 'l3', quantity: 1 }], reason: 'Tulips out of season' });

    const { body } = await getOrder(gw, 'rest', orderId, platformA, asA);
    expect(body.line_items.map((l: any) => [l.id, l.quantity, l.status])).toEqual([
      ['l1', { original: 3, total: 3, fulfilled: 3 }, 'fulfilled'],
      ['l2', { original: 2, total: 2, fulfilled: 1 }, 'partial'],
      ['l3', { original: 1, total: 0, fulfilled: 0 }, 'removed'],
      ['l4', { original: 1, total: 1, fulfilled: 0 }, 'processing'],
    ]);
    expect(body.fulfillment.events).toEqual([
      {
        id: 'evt_1',
        occurred_at: '2026-03-10T12:00:00.000Z',
        type: 'shipped',
        line_items: [
          { id: 'l1', quantity: 3 },
          { id: 'l2', quantity: 1 },
        ],
        tracking_number: expect.any(String),
        tracking_url: expect.stringMatching(/^https:\/\/flowers\.example\/store\/tracking\//),
        carrier: 'USPS',
        description: 'Handed to the carrier',
      },
    ]);
    expect(body.adjustments).toEqual([
      {
        id: 'adj_1',
        type: 'refund',
        occurred_at: '2026-03-10T12:00:00.000Z',
        status: 'completed',
        line_items: [{ id: 'l3', quantity: -1 }],
        totals: [{ type: 'total', amount: -3000 }],
        description: 'Tulips out of season',
      },
    ]);
    // Every line that ever existed is still listed; totals stay as charged at checkout.
    const placed = (await gw.adapter.getOrder(orderId))!.totals.total;
    expect(body.totals.at(-1)).toEqual({ type: 'total', amount: placed });
  });
});
