/**
 * The status machine's refused and unhappy transitions, each a business outcome with a message
 * (never a 5xx): completed and canceled never change again; complete from an incomplete session;
 * a session whose order is being placed; placements that fail, get lost, stay pending or are
 * refused; prices and stock that change before complete.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { adapterControl, ATTEMPT_LEASE_MS, controlled, type AdapterControl } from './adapter-control.js';
import { BUYER, checkoutGateway, codes, line, pay, total, walkToReady, type CheckoutGateway } from './checkout-gateway.js';

let gw: CheckoutGateway;
let control: AdapterControl;
beforeAll(async () => {
  control = adapterControl();
  gw = await checkoutGateway({ wrapAdapter: controlled(control) });
});
afterAll(() => gw.close());
beforeEach(() => {
  Object.assign(control, adapterControl());
});

const refusal = (body: any) => [body.proto.status, body.messages.map((m: any) => [m.code, m.severity])];

describe('final statuses', () => {
  it('a completed checkout refuses update, cancel and another complete, and places no second order', async () => {
    const rest = gw.client('rest');
    const { ready, payload } = await walkToReady(rest, [line('pot_ceramic')]);
    const done = (await rest.complete(ready.id, pay('success_token'))).body;
    for (const reply of [
      await rest.update(ready.id, payload),
      await rest.cancel(ready.id),
      await rest.complete(ready.id, pay('success_token')),
    ]) {
      expect(reply.status).toBe(200);
      expect(refusal(reply.body)).toEqual(['error', [['checkout_completed', 'unrecoverable']]]);
      expect(reply.body.status).toBe('completed');
      expect(reply.body.order).toEqual(done.order);
    }
    expect(control.placements).toBe(1);
    expect((await rest.get(ready.id)).body).toEqual(done);
  });

  it('cancel from an open status gives the canceled checkout; afterwards nothing changes it', async () => {
    const mcp = gw.client('mcp');
    const { withDestination, payload } = await walkToReady(mcp, [line('bouquet_tulips')]);
    const canceled = await mcp.cancel(withDestination.id);
    expect(canceled.body.proto.status).toBe('success');
    expect(canceled.body.status).toBe('canceled');
    expect(canceled.body.continue_url).toBeUndefined();
    expect(canceled.body.line_items).toEqual(withDestination.line_items);
    expect((await mcp.get(withDestination.id)).body).toEqual(canceled.body);
    for (const reply of [
      await mcp.update(withDestination.id, payload),
      await mcp.complete(withDestination.id, pay('success_token')),
      await mcp.cancel(withDestination.id),
    ]) {
      expect(refusal(reply.body)).toEqual(['error', [['checkout_canceled', 'unrecoverable']]]);
      expect(reply.body.status).toBe('canceled');
    }
    expect(control.placements).toBe(0);
  });
});

describe('complete before the checkout is ready', () => {
  it('is refused with what is missing: data the platform can send is recoverable and the status stays incomplete', async () => {
    const rest = gw.client('rest');
    const created = (await rest.create({ line_items: [line('pot_ceramic')] })).body;
    const reply = await rest.complete(created.id, pay('success_token'));
    expect(reply.body.proto.status).toBe('error');
    expect(reply.body.status).toBe('incomplete');
    expect(reply.body.messages.map((m: any) => [m.code, m.severity, m.path])).toEqual([
      ['missing', 'recoverable', '$.buyer.email'],
      ['missing', 'recoverable', '$.fulfillment.methods'],
    ]);
    expect(control.placements).toBe(0);
  });

  it('a store that requires more buyer fields asks for them the same way', async () => {
    const strict = await checkoutGateway({ tenant: { checkout: { required_buyer_fields: ['phone_number'] } } });
    try {
      const rest = strict.client('rest');
      const { ready } = await walkToReady(rest, [line('pot_ceramic')]);
      expect(ready.status).toBe('incomplete');
      expect(codes(ready)).toEqual([['missing', '$.buyer.phone_number']]);
      const reply = await rest.complete(ready.id, pay('success_token'));
      expect(reply.body.status).toBe('incomplete');
      expect(reply.body.messages.map((m: any) => [m.code, m.severity, m.path])).toEqual([
        ['missing', 'recoverable', '$.buyer.phone_number'],
      ]);
    } finally {
      await strict.close();
    }
  });
});

describe('while the order is being placed', () => {
  it('updates, cancels and other completes are refused unchanged; the same request replays; the queue places it once', async () => {
    const rest = gw.client('rest');
    const { ready, payload } = await walkToReady(rest, [line('bouquet_roses'), line('pot_ceramic')]);
    control.failBefore = 1;
    const key = randomUUID();
    const first = await rest.complete(ready.id, pay('success_token'), { key });
    expect(first.status).toBe(200);
    expect(first.body.proto.status).toBe('success');
    expect(first.body.status).toBe('complete_in_progress');
    expect(first.body.order).toBeUndefined();
    expect(first.body.continue_url).toBeUndefined();

    for (const reply of [
      await rest.update(ready.id, payload),
      await rest.cancel(ready.id),
      await rest.complete(ready.id, pay('success_token')),
    ]) {
      expect(reply.status).toBe(200);
      expect(refusal(reply.body)).toEqual(['error', [['checkout_in_progress', 'recoverable']]]);
      const { messages: _, proto: __, ...shown } = reply.body;
      const { proto: ___, ...before } = first.body;
      expect(shown).toEqual(before);
    }
    const retry = await rest.complete(ready.id, pay('success_token'), { key });
    expect(retry.replayed).toBe(true);
    expect(retry.body).toEqual(first.body);

    // The failed attempt may still be running somewhere: nobody places again before its lease ends,
    // and a get only shows the session.
    await gw.app.completions.drain();
    expect((await rest.get(ready.id)).body.status).toBe('complete_in_progress');
    expect(control.placements).toBe(1);
    gw.clock.now += ATTEMPT_LEASE_MS;
    expect((await rest.get(ready.id)).body.status).toBe('complete_in_progress');
    await gw.app.completions.drain();
    const resolved = (await rest.get(ready.id)).body;
    expect(resolved.status).toBe('completed');
    expect(resolved.order.id).toMatch(/^ord_/);
    expect(control.placements).toBe(2);
    expect((await rest.get(ready.id)).body).toEqual(resolved);
    expect(control.placements).toBe(2);
  });

  it('an order placed whose answer was lost is found by reference by the completion queue at once: one order', async () => {
    const mcp = gw.client('mcp');
    const { ready } = await walkToReady(mcp, [line('pot_ceramic')]);
    control.failAfter = 1;
    expect((await mcp.complete(ready.id, pay('success_token'))).body.status).toBe('complete_in_progress');
    await gw.app.completions.drain();
    const resolved = (await mcp.get(ready.id)).body;
    expect(resolved.status).toBe('completed');
    expect(control.placements).toBe(1);
  });

  it('a pending placement completes once the store confirms it', async () => {
    const rest = gw.client('rest');
    const { ready } = await walkToReady(rest, [line('pot_ceramic')]);
    control.pending = 1;
    expect((await rest.complete(ready.id, pay('success_token'))).body.status).toBe('complete_in_progress');
    expect((await rest.get(ready.id)).body.status).toBe('complete_in_progress');
    await gw.app.completions.drain();
    expect((await rest.get(ready.id)).body.status).toBe('completed');
    expect(control.placements).toBe(1);
  });

  it('a placement the store refuses releases the payment, asks for review (requires_escalation); an update then completes it', async () => {
    const rest = gw.client('rest');
    const { ready, payload } = await walkToReady(rest, [line('pot_ceramic')]);
    control.refuse = { status: 'rejected', reason: 'out_of_stock', detail: 'not enough stock for line 1' };
    const refused = await rest.complete(ready.id, pay('success_token'));
    expect(refused.body.proto.status).toBe('error');
    expect(refused.body.status).toBe('requires_escalation');
    expect(refused.body.continue_url).toMatch(/^https:\/\//);
    expect(refused.body.messages.map((m: any) => [m.code, m.severity])).toEqual([['out_of_stock', 'requires_buyer_review']]);
    expect(await gw.store.get(`payment:sandbox:shop:sandbox:${ready.id}`)).toBeNull();
    expect((await rest.get(ready.id)).body.status).toBe('requires_escalation');
    expect((await rest.update(ready.id, payload)).body.status).toBe('ready_for_complete');
    expect((await rest.complete(ready.id, pay('success_token'))).body.status).toBe('completed');
  });
});

describe('changes before complete', () => {
  it('a total changed since it was shown: requires_escalation, requires_buyer_review, nothing charged; an update confirms it', async () => {
    // SPRING2025 (25% off) ends at 2025-06-01T00:00Z: valid when shown, expired at complete.
    gw.clock.now = Date.parse('2025-05-31T23:40:00Z');
    const rest = gw.client('rest');
    const discounts = { discounts: { codes: ['SPRING2025'] } };
    const { ready, payload } = await walkToReady(rest, [line('bouquet_tulips')], discounts);
    expect(ready.status).toBe('ready_for_complete');
    expect(total(ready.totals, 'items_discount')).toBe(-750);
    gw.clock.now = Date.parse('2025-06-01T00:00:01Z');
    const reply = await rest.complete(ready.id, pay('success_token'));
    expect(reply.body.proto.status).toBe('error');
    expect(reply.body.status).toBe('requires_escalation');
    expect(reply.body.continue_url).toMatch(/^https:\/\//);
    expect(reply.body.messages.map((m: any) => [m.type, m.code, m.severity ?? null, m.path])).toEqual([
      ['warning', 'discount_code_expired', null, '$.discounts.codes[0]'],
      ['error', 'price_changed', 'requires_buyer_review', '$.totals'],
    ]);
    expect(reply.body.messages[1].content).toBe(
      'The totals changed since they were last shown: items_discount is now none (was -7.50 USD); tax is now 1.88 USD (was ' +
        '1.41 USD); total is now 36.88 USD (was 28.91 USD). Nothing was charged; review the checkout with the buyer, then update ' +
        'it to continue.',
    );
    expect(total(reply.body.totals, 'items_discount')).toBeUndefined();
    expect(control.placements).toBe(0);
    expect(await gw.store.get(`payment:sandbox:shop:sandbox:${ready.id}`)).toBeNull();
    // The review stays until the platform updates the checkout (the buyer saw the new total).
    expect((await rest.get(ready.id)).body.status).toBe('requires_escalation');
    const confirmed = (await rest.update(ready.id, payload)).body;
    expect(confirmed.status).toBe('ready_for_complete');
    const done = (await rest.complete(ready.id, pay('success_token'))).body;
    expect([done.status, total(done.totals, 'total')]).toEqual(['completed', 3688]);
  });

  it('an item that sold out since: incomplete with the line message, nothing charged', async () => {
    const mcp = gw.client('mcp');
    const { ready } = await walkToReady(mcp, [line('pot_ceramic'), line('bouquet_roses')]);
    control.soldOut.add('pot_ceramic');
    const reply = await mcp.complete(ready.id, pay('success_token'));
    expect(reply.body.proto.status).toBe('error');
    expect(reply.body.status).toBe('incomplete');
    expect(codes(reply.body)).toContainEqual(['out_of_stock', '$.line_items[0]']);
    expect(control.placements).toBe(0);
  });

  it('the buyer fields typed are echoed as built up', async () => {
    const rest = gw.client('rest');
    const created = (await rest.create({ line_items: [line('ebook_flower_care')], buyer: { first_name: 'Ann' } })).body;
    const lines = [{ id: created.line_items[0].id, item: { id: 'ebook_flower_care' } }];
    const more = (await rest.update(created.id, { line_items: lines, buyer: { first_name: 'Ann', email: BUYER.email } })).body;
    expect(more.buyer).toEqual({ first_name: 'Ann', email: BUYER.email });
  });
});
