/** The sandbox payment handler: its documented tokens, and one capture per reference across replicas. */
import { describe, expect, it } from 'vitest';
import { SandboxHandler, SANDBOX_TOKENS } from '../../src/payments/sandbox.js';
import { MemoryStore } from '../../src/state/memory-store.js';

const card = (token: string) => ({
  handler_id: 'sandbox',
  type: 'card',
  display: { brand: 'Visa', last_digits: '4242' },
  credential: { type: 'PAYMENT_GATEWAY', token },
});
const charge = (handler: SandboxHandler, token: string, reference = 'chk_1') =>
  handler.charge({ reference, amount: 2500, currency: 'USD', instrument: card(token) });

describe('sandbox tokens', () => {
  const handler = new SandboxHandler(new MemoryStore(), 'shop', 'sandbox');

  it('success_token captures the amount, with the card display', async () => {
    const result = await charge(handler, SANDBOX_TOKENS.success, 'chk_success');
    expect(result).toEqual({
      status: 'captured',
      payment: {
        handlerId: 'sandbox',
        transactionId: expect.stringMatching(/^sbx_[0-9a-f]{24}$/),
        amount: 2500,
        display: { brand: 'Visa', lastDigits: '4242' },
      },
    });
  });

  it('fail_token is declined, action_required_token needs the buyer, anything else is declined', async () => {
    expect(await charge(handler, 'fail_token', 'chk_fail')).toEqual({ status: 'declined', reason: 'The card was declined.' });
    expect(await charge(handler, 'action_required_token', 'chk_action')).toEqual({
      status: 'requires_buyer',
      reason: 'The card issuer asks the buyer to confirm this payment.',
    });
    expect(await charge(handler, 'tok_live_123', 'chk_other')).toEqual({
      status: 'declined',
      reason: 'The credential is not a sandbox test token.',
    });
    for (const reference of ['chk_fail', 'chk_action', 'chk_other']) expect(await handler.captured(reference)).toBeNull();
  });
});

describe('one capture per reference', () => {
  it('concurrent charges on two replicas sharing a store capture once; a later one answers with that capture', async () => {
    const store = new MemoryStore();
    const [a, b] = [new SandboxHandler(store, 'shop', 'sandbox'), new SandboxHandler(store, 'shop', 'sandbox')];
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => charge(i % 2 ? a : b, SANDBOX_TOKENS.success)));
    const ids = new Set(results.map((r) => (r.status === 'captured' ? r.payment.transactionId : r.status)));
    expect(ids.size).toBe(1);
    const later = await charge(a, SANDBOX_TOKENS.declined);
    expect(later.status === 'captured' && later.payment.transactionId).toBe([...ids][0]);
    expect((await b.captured('chk_1'))?.transactionId).toBe([...ids][0]);
  });

  it('a released capture is gone; the next charge captures anew', async () => {
    const handler = new SandboxHandler(new MemoryStore(), 'shop', 'sandbox');
    const first = await charge(handler, SANDBOX_TOKENS.success);
    await handler.release('chk_1');
    expect(await handler.captured('chk_1')).toBeNull();
    const second = await charge(handler, SANDBOX_TOKENS.success);
    expect(
      second.status === 'captured' && first.status === 'captured' && second.payment.transactionId !== first.payment.transactionId,
    ).toBe(true);
  });

  it('references of other tenants and handlers do not meet', async () => {
    const store = new MemoryStore();
    await charge(new SandboxHandler(store, 'shop', 'sandbox'), SANDBOX_TOKENS.success);
    expect(await new SandboxHandler(store, 'other-shop', 'sandbox').captured('chk_1')).toBeNull();
    expect(await new SandboxHandler(store, 'shop', 'sandbox-eu').captured('chk_1')).toBeNull();
  });
});
