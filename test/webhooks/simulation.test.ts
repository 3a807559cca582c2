/**
 * The demo store's simulation API: moves a placed order along (ship, partially fulfill, deliver,
 * refund, return, cancel), each change an order-updated webhook with the fresh order; enabled
 * only by a tenant simulation secret presented as a bearer token, invisible otherwise.
 */
import { mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../adapters/kit/config-error.js';
import { MemoryStore } from '../../src/state/memory-store.js';
import { loadTenants } from '../../src/tenancy/load.js';
import { assembleTenant } from '../../src/tenancy/tenant.js';
import { baseTenantConfig } from '../helpers/gateway.js';
import { orderGateway, SIMULATION_SECRET, type OrderGateway } from '../helpers/order-gateway.js';
import { stubAdapter } from '../helpers/stub-adapter.js';
import { startReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';
import { bodyOf } from './platform-side.js';

let gw: OrderGateway;
let receiver: WebhookReceiver;
beforeAll(async () => {
  receiver = await startReceiver();
  gw = await orderGateway();
});
afterAll(async () => {
  await gw.close();
  await receiver.close();
});
afterEach(() => void (receiver.received.length = 0));

const simulate = (orderId: string, action: string, body?: unknown, authorization: string | null = `Bearer ${SIMULATION_SECRET}`) =>
  gw.app.inject({
    method: 'POST',
    url: `/simulate/orders/${orderId}/${action}`,
    headers: { ...(authorization !== null && { authorization }), ...(body !== undefined && { 'content-type': 'application/json' }) },
    ...(body !== undefined && { payload: JSON.stringify(body) }),
  });

const statuses = (order: { line_items: Array<{ status: string }> }) => order.line_items.map((l) => l.status);

describe('the simulation API', () => {
  it('ships part of a line, the rest, delivers; each change is a webhook carrying the fresh order', async () => {
    const orderId = await gw.placeOrder({ webhookUrl: receiver.url() });
    await receiver.waitFor(1); // Order created

    const partial = await simulate(orderId, 'ship', { lines: [{ id: 'l1', quantity: 2 }], carrier: 'UPS', trackingNumber: '1Z999' });
    expect(partial.statusCode).toBe(200);
    expect(statuses(partial.json().order)).toEqual(['partial', 'processing', 'processing']);
    expect(partial.json().event_id).toMatch(/^evt_/);
    const rest = await simulate(orderId, 'ship');
    const delivered = await simulate(orderId, 'deliver');
    expect(statuses(delivered.json().order)).toEqual(['fulfilled', 'fulfilled', 'fulfilled']);

    const [, ...updates] = await receiver.waitFor(4);
    expect(updates.map((w) => w.headers['webhook-id'])).toEqual([partial.json().event_id, rest.json().event_id, delivered.json().event_id]);
    const last = bodyOf(updates[2]!);
    expect(last).toEqual({ ...delivered.json().order, proto: last.proto, event_id: last.event_id, created_time: last.created_time });
    expect(last.fulfillment.events.map((e) => [e.type, e.tracking_number, e.carrier])).toEqual([
      ['shipped', '1Z999', 'UPS'],
      ['shipped', expect.any(String), 'USPS'],
      ['delivered', expect.any(String), 'USPS'],
    ]);
    expect(last.fulfillment.events.every((e) => e.tracking_url?.startsWith('https://flowers.example/store/tracking/'))).toBe(true);
  });

  it('refunds, returns and cancellations append signed adjustments', async () => {
    const orderId = await gw.placeOrder({ webhookUrl: receiver.url() });
    await simulate(orderId, 'ship', { lines: [{ id: 'l1', quantity: 3 }] });
    const returned = (await simulate(orderId, 'return', { lines: [{ id: 'l1', quantity: 1 }], reason: 'Wilted' })).json().order;
    expect(returned.adjustments.at(-1)).toMatchObject({
      type: 'return',
      status: 'pending',
      line_items: [{ id: 'l1', quantity: -1 }],
      description: 'Wilted',
    });
    const received = (await simulate(orderId, 'receive_return', { returnId: returned.adjustments.at(-1).id })).json().order;
    expect(received.line_items[0].quantity).toEqual({ original: 3, total: 2, fulfilled: 2 });
    const refunded = (await simulate(orderId, 'refund', { amount: 500, lines: [{ id: 'l2', quantity: 2 }], reason: 'Out of pots' })).json()
      .order;
    expect(refunded.adjustments.at(-1)).toMatchObject({
      type: 'refund',
      status: 'completed',
      line_items: [{ id: 'l2', quantity: -2 }],
      totals: [{ type: 'total', amount: -500 }],
    });
    expect(statuses(refunded)).toEqual(['fulfilled', 'removed', 'processing']);
    const canceled = (await simulate(orderId, 'cancel', { reason: 'Store closing' })).json().order;
    expect(statuses(canceled)).toEqual(['fulfilled', 'removed', 'removed']);
    expect(canceled.adjustments.at(-1)).toMatchObject({ type: 'cancellation', line_items: [{ id: 'l3', quantity: -1 }] });
    expect(canceled.messages).toEqual([expect.objectContaining({ type: 'info', code: 'order_canceled' })]);
    // Earlier entries are never rewritten.
    expect(canceled.adjustments.slice(0, 3)).toEqual(refunded.adjustments);
    const webhooks = await receiver.waitFor(6);
    expect(bodyOf(webhooks[5]!).adjustments).toEqual(canceled.adjustments);
  });

  it("needs the tenant's secret as a bearer token", async () => {
    const orderId = await gw.placeOrder();
    for (const authorization of [null, 'Bearer wrong-secret', `Basic ${SIMULATION_SECRET}`, `Bearer ${SIMULATION_SECRET}x`]) {
      const res = await simulate(orderId, 'ship', undefined, authorization);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ code: 'invalid_credentials', content: expect.not.stringContaining(SIMULATION_SECRET) });
      expect(res.headers['www-authenticate']).toBe('Bearer');
    }
    expect((await gw.adapter.getOrder(orderId))!.events).toEqual([]);
  });

  it('answers bad requests with 400 or 404 and a clear reason, never a 5xx', async () => {
    const orderId = await gw.placeOrder();
    const cases: Array<[string, string, unknown, number, string]> = [
      ['ord_missing', 'ship', undefined, 404, 'no order ord_missing'],
      [orderId, 'explode', undefined, 400, 'action must be one of ship, in_transit, deliver, refund, return, receive_return, cancel'],
      [orderId, 'deliver', undefined, 400, 'delivered: nothing has been shipped'],
      [orderId, 'refund', {}, 400, '$.amount is required'],
      [orderId, 'refund', { amount: '5.00' }, 400, '$.amount must be integer'],
      [orderId, 'refund', { amount: 10 ** 9 }, 400, 'refund: at most'],
      [orderId, 'ship', { lines: [{ id: 'l9', quantity: 1 }] }, 400, 'ship: the order has no line l9'],
      [orderId, 'ship', { lines: [{ id: 'l1', quantity: 0 }] }, 400, 'quantity of line l1 must be a positive integer'],
      [orderId, 'ship', { color: 'red' }, 400, '$.color is not allowed here'],
      [orderId, 'ship', [1, 2], 400, '$ must be object'],
    ];
    for (const [id, action, body, status, reason] of cases) {
      const res = await simulate(id, action, body);
      expect(res.statusCode, `${action} ${JSON.stringify(body)}`).toBe(status);
      expect(res.json().content).toContain(reason);
    }
    const malformed = await gw.app.inject({
      method: 'POST',
      url: `/simulate/orders/${orderId}/ship`,
      headers: { authorization: `Bearer ${SIMULATION_SECRET}`, 'content-type': 'application/json' },
      payload: '{"lines":',
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().code).toBe('invalid_json');
  });

  it('does not exist where the tenant sets no simulation secret', async () => {
    const plain = await orderGateway({ tenant: { simulation: undefined } });
    try {
      const orderId = await plain.placeOrder();
      const res = await plain.app.inject({
        method: 'POST',
        url: `/simulate/orders/${orderId}/ship`,
        headers: { authorization: `Bearer ${SIMULATION_SECRET}` },
      });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ code: 'not_found', content: `no endpoint POST /simulate/orders/${orderId}/ship` });
      expect((await plain.adapter.getOrder(orderId))!.events).toEqual([]);
    } finally {
      await plain.close();
    }
  });
});

describe('the simulation secret in tenant files', () => {
  const dir = mkdtempSync(join(tmpdir(), 'proto-simulation-'));
  const tenantFile = (extra: string) => {
    writeFileSync(
      join(dir, 'tenants', 'demo.yaml'),
      `id: demo\nname: Demo\nbase_url: https://demo.example\nadapter:\n  type: memory\n` +
        `  settings: { data_dir: ${join(process.cwd(), 'config/demo')}, storefront_url: https://demo.example/store }\n` +
        `capabilities:\n  dev.proto.shopping.order: {}\n${extra}`,
    );
  };
  mkdirSync(join(dir, 'tenants'));

  it('enables the API on the demo store, reading the secret from its reference', async () => {
    tenantFile('simulation:\n  secret: { env: DEMO_SIMULATION_SECRET }\n');
    const store = new MemoryStore();
    const registry = await loadTenants(dir, { env: { DEMO_SIMULATION_SECRET: 's3cret' }, now: Date.now, store });
    const access = registry.tenants[0]!.simulation!;
    expect(access.admits('Bearer s3cret')).toBe(true);
    expect(access.admits('Bearer s3cre')).toBe(false);
    expect(inspect(access, { depth: 10 })).not.toContain('s3cret');
    await store.close();
  });

  it('creates a missing secret file with create_secret (readable by its owner only) and keeps an existing one', async () => {
    tenantFile('simulation:\n  secret: { file: ../simulation-secret }\n  create_secret: true\n');
    const load = () => loadTenants(dir, { env: {}, now: Date.now, store: new MemoryStore() });
    const access = (await load()).tenants[0]!.simulation!;
    const secret = readFileSync(join(dir, 'simulation-secret'), 'utf8').trim();
    expect(secret).toMatch(/^[0-9a-f]{48}$/);
    expect(statSync(join(dir, 'simulation-secret')).mode & 0o777).toBe(0o600);
    expect(access.admits(`Bearer ${secret}`)).toBe(true);
    expect((await load()).tenants[0]!.simulation!.admits(`Bearer ${secret}`)).toBe(true);
    tenantFile('simulation:\n  secret: { env: DEMO_SIMULATION_SECRET }\n  create_secret: true\n');
    await expect(load()).rejects.toThrow(/\$\.simulation: create_secret needs a \{ file: \.\.\. \} reference/);
  });

  it('fails start-up with the field when the secret is missing, literal, or the adapter cannot simulate', async () => {
    tenantFile('simulation:\n  secret: { env: DEMO_SIMULATION_SECRET }\n');
    await expect(loadTenants(dir, { env: {}, now: Date.now, store: new MemoryStore() })).rejects.toThrow(
      /\$\.simulation\.secret: environment variable DEMO_SIMULATION_SECRET is not set/,
    );
    tenantFile('simulation:\n  secret: plain-text\n');
    await expect(loadTenants(dir, { env: {}, now: Date.now, store: new MemoryStore() })).rejects.toThrow(/simulation\.secret/);
    const config = { ...baseTenantConfig, simulation: { secret: { env: 'X' } } };
    expect(() => assembleTenant({ config, file: 'stub.yaml' }, stubAdapter(), { simulationSecret: 'x' })).toThrow(ConfigError);
    expect(() => assembleTenant({ config, file: 'stub.yaml' }, stubAdapter(), { simulationSecret: 'x' })).toThrow(
      'stub.yaml: $.simulation: the stub adapter has no order simulation; remove the section',
    );
  });
});
