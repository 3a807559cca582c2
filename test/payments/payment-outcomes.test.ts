/**
 * Each payment outcome of complete, through the API: captured (an order), declined (the checkout
 * stays completable), buyer action needed and handoff stores (requires_escalation with
 * continue_url), and instruments that cannot be used. The credential never reaches the state
 * store, a log line or a response.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryStore } from '../../src/state/memory-store.js';
import {
  checkoutGateway,
  codes,
  line,
  NOW,
  pay,
  STOREFRONT,
  walkToReady,
  type CheckoutGateway,
  type Transport,
} from '../capabilities/checkout/checkout-gateway.js';

/** Every value the gateway writes, as its stored text. */
class RecordingStore extends MemoryStore {
  readonly written: string[] = [];
  override set<T>(key: string, value: T, ttlMs: number) {
    this.written.push(`${key} ${JSON.stringify(value)}`);
    return super.set(key, value, ttlMs);
  }
  override setText(key: string, text: string, ttlMs: number) {
    this.written.push(`${key} ${text}`);
    return super.setText(key, text, ttlMs);
  }
  override setIfAbsent<T>(key: string, value: T, ttlMs: number) {
    this.written.push(`${key} ${JSON.stringify(value)}`);
    return super.setIfAbsent(key, value, ttlMs);
  }
  override compareAndSet<T>(key: string, expectedVersion: number, value: T, ttlMs: number) {
    this.written.push(`${key} ${JSON.stringify(value)}`);
    return super.compareAndSet(key, expectedVersion, value, ttlMs);
  }
}

let gw: CheckoutGateway | undefined;
const store = new RecordingStore({ now: () => gw?.clock.now ?? NOW });
beforeAll(async () => {
  gw = await checkoutGateway({ store });
});
afterAll(async () => {
  await gw!.close();
  await store.close();
});

const outcome = (body: any) => [body.proto.status, body.status, body.messages?.map((m: any) => [m.code, m.severity, m.path ?? null]) ?? []];

describe.each<Transport>(['rest', 'mcp'])('payment outcomes over %s', (transport) => {
  const client = () => gw!.client(transport);

  it('declined: payment_failed, the checkout stays ready_for_complete, and another instrument completes it', async () => {
    const { ready } = await walkToReady(client(), [line('pot_ceramic')]);
    const declined = (await client().complete(ready.id, pay('fail_token'))).body;
    expect(outcome(declined)).toEqual(['error', 'ready_for_complete', [['payment_failed', 'recoverable', '$.payment.instruments[0]']]]);
    expect(declined.messages[0].content).toBe(
      'The card was declined. Nothing was charged; complete again with another payment instrument.',
    );
    expect(declined.order).toBeUndefined();
    expect((await client().get(ready.id)).body.status).toBe('ready_for_complete');
    const done = (await client().complete(ready.id, pay('success_token', { display: { brand: 'Mastercard', last_digits: '5678' } }))).body;
    expect(done.status).toBe('completed');
    expect(done.payment.instruments[0].display).toEqual({ brand: 'Mastercard', last_digits: '5678' });
  });

  it('buyer action needed: requires_escalation with continue_url; complete is refused until an update brings it back', async () => {
    const { ready, payload } = await walkToReady(client(), [line('bouquet_roses', 2)]);
    const escalated = (await client().complete(ready.id, pay('action_required_token'))).body;
    expect(outcome(escalated)).toEqual(['error', 'requires_escalation', [['buyer_action_required', 'requires_buyer_input', null]]]);
    expect(escalated.continue_url).toBe(`${STOREFRONT}/cart/bouquet_roses:2?ref=${ready.id}`);
    expect((await client().get(ready.id)).body.status).toBe('requires_escalation');
    const again = (await client().complete(ready.id, pay('success_token'))).body;
    expect(outcome(again)).toEqual(['error', 'requires_escalation', [['buyer_action_required', 'requires_buyer_input', null]]]);
    expect((await client().update(ready.id, payload)).body.status).toBe('ready_for_complete');
    expect((await client().complete(ready.id, pay('success_token'))).body.status).toBe('completed');
  });

  it('instruments that cannot be used are recoverable messages at their path; nothing changes', async () => {
    const { ready } = await walkToReady(client(), [line('pot_ceramic')]);
    const cases: Array<[unknown, string, string]> = [
      [{}, 'missing', '$.payment.instruments'],
      [pay('success_token', { credential: undefined }), 'missing', '$.payment.instruments[0].credential'],
      [pay('success_token', { handler_id: 'paypal' }), 'payment_handler_unknown', '$.payment.instruments[0].handler_id'],
      [pay('success_token', { type: 'wallet' }), 'payment_instrument_unsupported', '$.payment.instruments[0].type'],
    ];
    for (const [body, code, path] of cases) {
      expect(outcome((await client().complete(ready.id, body)).body)).toEqual([
        'error',
        'ready_for_complete',
        [[code, 'recoverable', path]],
      ]);
    }
    expect((await client().get(ready.id)).body.status).toBe('ready_for_complete');
  });

  it('charges the selected instrument', async () => {
    const { ready } = await walkToReady(client(), [line('pot_ceramic')]);
    const body = pay('fail_token', { selected: false });
    body.payment.instruments.push({ ...pay('success_token').payment.instruments[0]!, id: 'instr_2', selected: true });
    const done = (await client().complete(ready.id, body)).body;
    expect(done.status).toBe('completed');
    expect(done.payment.instruments.map((i: any) => [i.id, i.selected])).toEqual([
      ['instr_1', false],
      ['instr_2', true],
    ]);
  });
});

describe('the credential', () => {
  it('never reaches the state store, a log line or a response, whatever the outcome', async () => {
    const secret = 'success_token';
    const rest = gw!.client('rest');
    const { ready, payload } = await walkToReady(rest, [line('pot_ceramic')]);
    const replies = [
      // Instruments sent with an update are shown without their credential.
      await rest.update(ready.id, { ...payload, payment: pay(secret).payment }),
      await rest.complete(ready.id, pay('fail_token')),
      await rest.complete(ready.id, pay(secret)),
      await rest.complete(ready.id, pay('x'.repeat(4097))),
    ];
    expect(replies.map((r) => r.status)).toEqual([200, 200, 200, 400]);
    expect(replies[0]!.body.payment.instruments).toEqual([
      { id: 'instr_1', handler_id: 'sandbox', type: 'card', selected: true, display: { brand: 'Visa', last_digits: '1234' } },
    ]);
    expect(replies[2]!.body.status).toBe('completed');
    for (const text of [...store.written, ...gw!.rawLogs, ...replies.map((r) => JSON.stringify(r.body))]) {
      expect(text).not.toContain(secret);
      expect(text).not.toContain('fail_token');
      expect(text).not.toContain('xxxxxxxx');
      expect(text).not.toMatch(/"credential\\?"\s*:/);
    }
    expect(store.written.some((w) => w.startsWith(`payment:sandbox:shop:sandbox:${ready.id} `))).toBe(true);
  });
});

describe('a store that takes payment on its own page (handoff)', () => {
  it('complete needs no instrument and escalates to the store checkout; no order is placed here', async () => {
    const handoff = await checkoutGateway({
      tenant: {
        payment_handlers: [{ id: 'store-checkout', name: 'dev.proto.payments.handoff', type: 'handoff', instruments: ['redirect'] }],
      },
    });
    try {
      const profile = (await handoff.app.inject({ method: 'GET', url: '/.well-known/proto' })).json();
      expect(profile.proto.payment_handlers).toEqual({
        'dev.proto.payments.handoff': [{ id: 'store-checkout', version: '2026-04-08', available_instruments: [{ type: 'redirect' }] }],
      });
      const mcp = handoff.client('mcp');
      const { ready } = await walkToReady(mcp, [line('bouquet_tulips')]);
      const escalated = (await mcp.complete(ready.id, {})).body;
      expect(outcome(escalated)).toEqual(['error', 'requires_escalation', [['buyer_action_required', 'requires_buyer_input', null]]]);
      expect(escalated.messages[0].content).toMatch(/^This store takes payment on its own checkout page\./);
      expect(escalated.continue_url).toBe(`${STOREFRONT}/cart/bouquet_tulips:1?ref=${ready.id}`);
      expect(codes((await mcp.get(ready.id)).body)).toEqual([['buyer_action_required', undefined]]);
    } finally {
      await handoff.close();
    }
  });
});
