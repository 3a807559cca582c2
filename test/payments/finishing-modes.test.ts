/**
 * The three finishing modes, chosen per tenant (`adapter.finishing`) among those the adapter
 * declares: start-up refuses a mode the adapter cannot do or handlers that do not fit it, and a
 * store_charged tenant passes the buyer's credential to the store once, never keeping it; the
 * store's decline is a recoverable payment_failed. (gateway_charged and handoff are walked in
 * payment-outcomes.test.ts and webhooks/handoff-reconcile.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BackendError, type Adapter, type PlaceOrderRequest } from '../../adapters/contract.js';
import { MemoryStore } from '../../src/state/memory-store.js';
import { checkoutGateway, line, NOW, pay, walkToReady, type CheckoutGateway } from '../capabilities/checkout/checkout-gateway.js';

const STORE_HANDLER = { id: 'store-card', name: 'dev.proto.payments.store_card', type: 'store' as const, instruments: ['card'] };
const SANDBOX_HANDLER = { id: 'sandbox', name: 'dev.proto.payments.sandbox', type: 'sandbox' as const, instruments: ['card'] };
type Handler = typeof STORE_HANDLER | typeof SANDBOX_HANDLER;
const storeTenant = (finishing?: 'gateway_charged' | 'store_charged' | 'handoff', handlers: Handler[] = [STORE_HANDLER]) => ({
  adapter: { type: 'memory' as const, settings: {}, ...(finishing && { finishing }) },
  payment_handlers: handlers,
});

/**
 * The demo store as a store that charges credentials itself: `tok_ok` is charged and the order
 * recorded paid, `tok_declined` is refused. What the store was handed is kept for the test.
 */
function storeCharging(seen: PlaceOrderRequest[]) {
  return (adapter: Adapter): Adapter =>
    Object.assign(Object.create(adapter) as Adapter, {
      capabilities: { ...adapter.capabilities, finishing: ['store_charged', 'handoff'] },
      async placeOrder(request: PlaceOrderRequest) {
        seen.push(request);
        if (request.payment.mode !== 'store_charged') throw new BackendError('this store charges credentials itself', false);
        if (request.payment.credential.token !== 'tok_ok')
          return { status: 'rejected' as const, reason: 'payment_declined' as const, detail: 'The card was declined by the store' };
        const record = { handlerId: request.payment.handlerId, transactionId: 'store_tx_1', amount: request.expectedTotal };
        return adapter.placeOrder({ ...request, payment: { mode: 'gateway_charged', record } });
      },
    });
}

describe('choosing the finishing mode at start-up', () => {
  it('refuses a mode the adapter does not declare, naming the field and what it supports', async () => {
    const noStoreCharging = (adapter: Adapter): Adapter =>
      Object.assign(Object.create(adapter) as Adapter, {
        capabilities: { ...adapter.capabilities, finishing: ['gateway_charged', 'handoff'] },
      });
    await expect(checkoutGateway({ tenant: storeTenant('store_charged'), wrapAdapter: noStoreCharging })).rejects.toThrow(
      'test/tenant.yaml: $.adapter.finishing "store_charged" is not supported by the memory adapter (it supports gateway_charged, handoff)',
    );
  });

  it('refuses handlers that do not fit the mode, and a charging mode without a handler for it', async () => {
    await expect(checkoutGateway({ tenant: storeTenant('gateway_charged', [STORE_HANDLER]) })).rejects.toThrow(
      '$.payment_handlers[0].type "store" needs adapter.finishing store_charged, not gateway_charged',
    );
    await expect(checkoutGateway({ tenant: storeTenant('gateway_charged', []) })).rejects.toThrow(
      '$.adapter.finishing gateway_charged needs a payment handler of type sandbox in $.payment_handlers',
    );
  });

  it('refuses a handler type this build does not register, naming the types it has', async () => {
    const unknown = { ...SANDBOX_HANDLER, type: 'crypto' } as unknown as Handler;
    await expect(checkoutGateway({ tenant: storeTenant(undefined, [SANDBOX_HANDLER, unknown]) })).rejects.toThrow(
      '$.payment_handlers[1].type "crypto" is not a payment handler type of this build (sandbox, handoff, store)',
    );
  });

  it("defaults to handoff when no handler charges, otherwise to the adapter's first mode", async () => {
    const handoff = await checkoutGateway({ tenant: storeTenant(undefined, []) });
    const charged = await checkoutGateway({ tenant: storeTenant(undefined, [SANDBOX_HANDLER]) });
    try {
      expect([handoff.app.tenants.registry.tenants[0]!.finishing, charged.app.tenants.registry.tenants[0]!.finishing]).toEqual([
        'handoff',
        'gateway_charged',
      ]);
    } finally {
      await Promise.all([handoff.close(), charged.close()]);
    }
  });
});

describe('store_charged: the store charges the credential', () => {
  const seen: PlaceOrderRequest[] = [];
  let gw: CheckoutGateway | undefined;
  const store = new MemoryStore({ now: () => gw?.clock.now ?? NOW });
  const written: string[] = [];
  const set = store.set.bind(store);
  const cas = store.compareAndSet.bind(store);
  Object.assign(store, {
    set: <T>(key: string, value: T, ttl: number) => (written.push(JSON.stringify(value)), set(key, value, ttl)),
    compareAndSet: <T>(key: string, version: number, value: T, ttl: number) => (
      written.push(JSON.stringify(value)),
      cas(key, version, value, ttl)
    ),
  });
  beforeAll(async () => {
    gw = await checkoutGateway({ store, tenant: storeTenant('store_charged'), wrapAdapter: storeCharging(seen) });
  });
  afterAll(async () => {
    await gw!.close();
    await store.close();
  });

  const storePay = (token: string) => pay(token, { handler_id: 'store-card' });

  it('places the order with the credential, once; the gateway captures nothing and keeps no credential', async () => {
    const rest = gw!.client('rest');
    const { ready } = await walkToReady(rest, [line('pot_ceramic')]);
    const done = (await rest.complete(ready.id, storePay('tok_ok'))).body;
    expect([done.status, done.order.id]).toEqual(['completed', expect.stringMatching(/^ord_/)]);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.payment).toEqual({
      mode: 'store_charged',
      handlerId: 'store-card',
      credential: { type: 'PAYMENT_GATEWAY', token: 'tok_ok' },
    });
    expect(seen[0]!.expectedTotal).toBe(done.totals.find((t: any) => t.type === 'total').amount);
    expect(written.filter((value) => value.includes('tok_ok'))).toEqual([]);
    expect(written.filter((value) => value.includes('"transactionId"'))).toEqual([]);
  });

  it("the store's decline is payment_failed at the instrument, nothing placed; another credential completes", async () => {
    const mcp = gw!.client('mcp');
    const { ready } = await walkToReady(mcp, [line('bouquet_tulips')]);
    const declined = (await mcp.complete(ready.id, storePay('tok_declined'))).body;
    expect([declined.proto.status, declined.status]).toEqual(['error', 'ready_for_complete']);
    expect(declined.messages.map((m: any) => [m.code, m.severity, m.path])).toEqual([
      ['payment_failed', 'recoverable', '$.payment.instruments[0]'],
    ]);
    expect(declined.messages[0].content).toMatch(/^The card was declined by the store\. Nothing was charged/);
    expect((await mcp.complete(ready.id, storePay('tok_ok'))).body.status).toBe('completed');
  });
});
