/**
 * Completes that die half way (the state store failing at the worst moment) are settled by a
 * retry of the same request or by the completion queue (never by a get), without a second order
 * or a second charge.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MemoryStore } from '../../../src/state/memory-store.js';
import { StoreUnavailableError } from '../../../src/state/store.js';
import { adapterControl, ATTEMPT_LEASE_MS, controlled, type AdapterControl } from './adapter-control.js';
import { checkoutGateway, line, NOW, pay, walkToReady, type CheckoutGateway } from './checkout-gateway.js';

/** Fails the next write of a key starting with `prefix`, once. */
class FlakyStore extends MemoryStore {
  prefix: string | undefined;
  private trip(key: string) {
    if (this.prefix === undefined || !key.startsWith(this.prefix)) return;
    this.prefix = undefined;
    throw new StoreUnavailableError('connection reset');
  }
  override async set<T>(key: string, value: T, ttlMs: number) {
    this.trip(key);
    return super.set(key, value, ttlMs);
  }
  override async setIfAbsent<T>(key: string, value: T, ttlMs: number) {
    this.trip(key);
    return super.setIfAbsent(key, value, ttlMs);
  }
}

let gw: CheckoutGateway | undefined;
const store = new FlakyStore({ now: () => gw?.clock.now ?? NOW });
let control: AdapterControl;
beforeAll(async () => {
  control = adapterControl();
  gw = await checkoutGateway({ store, wrapAdapter: controlled(control) });
});
afterAll(async () => {
  await gw!.close();
  await store.close();
});
beforeEach(() => {
  control.placements = 0;
});

describe('a complete that fails after the order was placed', () => {
  it('answers 503; the completion queue finds the order by reference once the attempt is over: one order', async () => {
    const rest = gw!.client('rest');
    const { ready } = await walkToReady(rest, [line('pot_ceramic')]);
    store.prefix = 'order:shop:'; // saving the order record fails
    const key = randomUUID();
    const failed = await rest.complete(ready.id, pay('success_token'), { key });
    expect([failed.status, failed.body.code]).toEqual([503, 'store_unavailable']);
    expect((await rest.get(ready.id)).body.status).toBe('complete_in_progress');
    gw!.clock.now += ATTEMPT_LEASE_MS;
    await gw!.app.completions.drain();
    expect((await rest.get(ready.id)).body.status).toBe('completed');
    const retried = await rest.complete(ready.id, pay('success_token'), { key });
    expect(retried.body.proto.status).toBe('error');
    expect(retried.body.messages[0].code).toBe('checkout_completed');
    expect(control.placements).toBe(1);
  });

  it('the retry itself settles it when nobody read the checkout in between', async () => {
    const mcp = gw!.client('mcp');
    const { ready } = await walkToReady(mcp, [line('pot_ceramic')]);
    store.prefix = 'order:shop:';
    const key = randomUUID();
    expect((await mcp.complete(ready.id, pay('success_token'), { key })).error?.data?.code).toBe('store_unavailable');
    const retried = (await mcp.complete(ready.id, pay('success_token'), { key })).body;
    expect([retried.proto.status, retried.status, retried.order.id]).toEqual(['success', 'completed', expect.stringMatching(/^ord_/)]);
    expect(control.placements).toBe(1);
  });
});

describe('a complete that fails before the payment was taken', () => {
  it('is in progress until its attempt is surely over; then the same request charges and places it', async () => {
    const rest = gw!.client('rest');
    const { ready } = await walkToReady(rest, [line('bouquet_tulips')]);
    store.prefix = 'payment:sandbox:'; // recording the capture fails
    const key = randomUUID();
    expect((await rest.complete(ready.id, pay('success_token'), { key })).status).toBe(503);
    expect((await rest.get(ready.id)).body.status).toBe('complete_in_progress');
    gw!.clock.now += ATTEMPT_LEASE_MS;
    const done = (await rest.complete(ready.id, pay('success_token'), { key })).body;
    expect(done.status).toBe('completed');
    expect(control.placements).toBe(1);
  });

  it('the completion queue reopens the checkout after the attempt, nothing charged; complete works again', async () => {
    const rest = gw!.client('rest');
    const { ready } = await walkToReady(rest, [line('bouquet_tulips')]);
    store.prefix = 'payment:sandbox:';
    expect((await rest.complete(ready.id, pay('success_token'))).status).toBe(503);
    expect((await rest.get(ready.id)).body.status).toBe('complete_in_progress');
    gw!.clock.now += ATTEMPT_LEASE_MS;
    expect((await rest.get(ready.id)).body.status).toBe('complete_in_progress');
    await gw!.app.completions.drain();
    const reopened = (await rest.get(ready.id)).body;
    expect([reopened.proto.status, reopened.status]).toEqual(['success', 'ready_for_complete']);
    expect(reopened.messages.map((m: any) => [m.type, m.code])).toEqual([['warning', 'completion_interrupted']]);
    expect(await store.get(`payment:sandbox:shop:sandbox:${ready.id}`)).toBeNull();
    expect((await rest.complete(ready.id, pay('success_token'))).body.status).toBe('completed');
    expect(control.placements).toBe(1);
  });
});
