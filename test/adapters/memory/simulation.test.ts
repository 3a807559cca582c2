import { describe, expect, it } from 'vitest';
import { SimulationError } from '../../../adapters/simulator.js';
import { CHICAGO, demoStore, request, shipTo } from './fixtures.js';

/** A placed order: 3 roses (l1) and 2 pots (l2), standard shipping by USPS. */
async function placedOrder() {
  const demo = await demoStore();
  const quote = request(
    [
      ['bouquet_roses', 3],
      ['pot_ceramic', 2],
    ],
    { fulfillment: shipTo(CHICAGO, ['l1', 'l2'], { all: 'std-ship' }) },
  );
  const total = (await demo.adapter.quote(quote)).totals.total;
  const placed = await demo.adapter.placeOrder({
    reference: 'chk_sim',
    quote,
    expectedTotal: total,
    buyer: { email: 'jane.smith@example.com' },
    payment: { mode: 'gateway_charged', record: { handlerId: 'sandbox', transactionId: 'tx', amount: total } },
  });
  if (placed.status !== 'placed') throw new Error('not placed');
  const advance = (minutes: number) => (demo.clock.now += minutes * 60_000);
  return { ...demo, orderId: placed.orderId, total, advance };
}

const quantities = (lines: Array<{ id: string; quantity: { original: number; current: number; fulfilled: number } }>) =>
  Object.fromEntries(lines.map((l) => [l.id, [l.quantity.current, l.quantity.fulfilled]]));

describe('demo order simulation', () => {
  it('ships part of a line, then the rest, each with tracking, then follows the latest shipment', async () => {
    const { adapter, orderId, advance } = await placedOrder();
    advance(60);
    const partial = await adapter.simulate(orderId, { type: 'ship', lines: [{ id: 'l1', quantity: 1 }] });
    expect(quantities(partial.lines)).toEqual({ l1: [3, 1], l2: [2, 0] });
    const trackingNumber = `${orderId.slice(-8).toUpperCase()}01`;
    expect(partial.events).toEqual([
      {
        id: 'evt_1',
        occurredAt: '2026-03-10T13:00:00.000Z',
        type: 'shipped',
        lines: [{ id: 'l1', quantity: 1 }],
        trackingNumber,
        trackingUrl: `https://flowers.example/store/tracking/${trackingNumber}`,
        carrier: 'USPS',
        description: 'Handed to the carrier',
      },
    ]);

    const rest = await adapter.simulate(orderId, { type: 'ship', trackingNumber: '1Z999', carrier: 'UPS' });
    expect(quantities(rest.lines)).toEqual({ l1: [3, 3], l2: [2, 2] });
    expect(rest.events[1]).toMatchObject({
      type: 'shipped',
      lines: [
        { id: 'l1', quantity: 2 },
        { id: 'l2', quantity: 2 },
      ],
      trackingNumber: '1Z999',
      carrier: 'UPS',
    });

    await adapter.simulate(orderId, { type: 'in_transit' });
    const delivered = await adapter.simulate(orderId, { type: 'deliver' });
    expect(delivered.events.map((e) => [e.id, e.type, e.trackingNumber])).toEqual([
      ['evt_1', 'shipped', trackingNumber],
      ['evt_2', 'shipped', '1Z999'],
      ['evt_3', 'in_transit', '1Z999'],
      ['evt_4', 'delivered', '1Z999'],
    ]);
    // Append-only: the first event is exactly as it was.
    expect(delivered.events[0]).toEqual(partial.events[0]);
    expect(await adapter.getOrder(orderId)).toEqual(delivered);
  });

  it('refuses moving a delivered shipment back in transit or delivering it twice; a new shipment starts over', async () => {
    const { adapter, orderId } = await placedOrder();
    await adapter.simulate(orderId, { type: 'ship', lines: [{ id: 'l1', quantity: 1 }], trackingNumber: 'T1' });
    await adapter.simulate(orderId, { type: 'in_transit' });
    await adapter.simulate(orderId, { type: 'in_transit' });
    await adapter.simulate(orderId, { type: 'deliver' });
    const delivered = 'the latest shipment (T1) was already delivered';
    await expect(adapter.simulate(orderId, { type: 'in_transit' })).rejects.toThrow(`in_transit: ${delivered}`);
    await expect(adapter.simulate(orderId, { type: 'deliver' })).rejects.toThrow(delivered);
    await adapter.simulate(orderId, { type: 'ship', trackingNumber: 'T2' });
    const second = await adapter.simulate(orderId, { type: 'deliver' });
    expect(second.events.map((e) => [e.type, e.trackingNumber])).toEqual([
      ['shipped', 'T1'],
      ['in_transit', 'T1'],
      ['in_transit', 'T1'],
      ['delivered', 'T1'],
      ['shipped', 'T2'],
      ['delivered', 'T2'],
    ]);
  });

  it('refuses shipping more than is left, and following a shipment that does not exist', async () => {
    const { adapter, orderId } = await placedOrder();
    await expect(adapter.simulate(orderId, { type: 'deliver' })).rejects.toThrow(/nothing has been shipped/);
    await expect(adapter.simulate(orderId, { type: 'ship', lines: [{ id: 'l2', quantity: 3 }] })).rejects.toThrow(
      /line l2 allows at most 2/,
    );
    await expect(adapter.simulate(orderId, { type: 'ship', lines: [{ id: 'l9', quantity: 1 }] })).rejects.toThrow(/no line l9/);
    await expect(adapter.simulate('ord_missing', { type: 'ship' })).rejects.toMatchObject({ code: 'not_found' });
  });

  it('refunds money, optionally removing unfulfilled units, never more than was paid', async () => {
    const { adapter, orderId, total } = await placedOrder();
    const refunded = await adapter.simulate(orderId, {
      type: 'refund',
      amount: 3500,
      lines: [{ id: 'l1', quantity: 1 }],
      reason: 'One bouquet wilted',
    });
    expect(refunded.adjustments).toEqual([
      {
        id: 'adj_1',
        type: 'refund',
        occurredAt: '2026-03-10T12:00:00.000Z',
        status: 'completed',
        amount: -3500,
        lines: [{ id: 'l1', quantity: -1 }],
        description: 'One bouquet wilted',
      },
    ]);
    expect(quantities(refunded.lines)).toEqual({ l1: [2, 0], l2: [2, 0] });
    await expect(adapter.simulate(orderId, { type: 'refund', amount: total - 3500 + 1 })).rejects.toThrow(
      `at most ${total - 3500} is left`,
    );
    await expect(adapter.simulate(orderId, { type: 'refund', amount: 0 })).rejects.toBeInstanceOf(SimulationError);
  });

  it('takes returns of fulfilled units as pending, then completes them when received', async () => {
    const { adapter, orderId } = await placedOrder();
    await expect(adapter.simulate(orderId, { type: 'return', lines: [{ id: 'l2', quantity: 1 }] })).rejects.toThrow(/at most 0/);
    await adapter.simulate(orderId, { type: 'ship' });
    const pending = await adapter.simulate(orderId, { type: 'return', lines: [{ id: 'l2', quantity: 1 }], reason: 'Chipped' });
    expect(pending.adjustments).toEqual([
      {
        id: 'adj_1',
        type: 'return',
        occurredAt: '2026-03-10T12:00:00.000Z',
        status: 'pending',
        lines: [{ id: 'l2', quantity: -1 }],
        description: 'Chipped',
      },
    ]);
    // The other pot may still be returned, not a third.
    await expect(adapter.simulate(orderId, { type: 'return', lines: [{ id: 'l2', quantity: 2 }] })).rejects.toThrow(/at most 1/);

    const received = await adapter.simulate(orderId, { type: 'receive_return', returnId: 'adj_1' });
    expect(received.adjustments.map((a) => [a.id, a.type, a.status, a.lines])).toEqual([
      ['adj_1', 'return', 'pending', [{ id: 'l2', quantity: -1 }]],
      ['adj_2', 'return', 'completed', [{ id: 'l2', quantity: -1 }]],
    ]);
    expect(quantities(received.lines)).toEqual({ l1: [3, 3], l2: [1, 1] });
    await expect(adapter.simulate(orderId, { type: 'receive_return', returnId: 'adj_1' })).rejects.toThrow(/already received/);
    await expect(adapter.simulate(orderId, { type: 'receive_return', returnId: 'adj_7' })).rejects.toThrow(/not a return/);
  });

  it('cancels what is not fulfilled yet, once', async () => {
    const { adapter, orderId } = await placedOrder();
    await adapter.simulate(orderId, { type: 'ship', lines: [{ id: 'l1', quantity: 2 }] });
    const canceled = await adapter.simulate(orderId, { type: 'cancel', reason: 'Buyer changed their mind' });
    expect(canceled.canceled).toBe(true);
    expect(quantities(canceled.lines)).toEqual({ l1: [2, 2], l2: [0, 0] });
    expect(canceled.lines.map((l) => l.quantity.original)).toEqual([3, 2]);
    expect(canceled.adjustments).toEqual([
      {
        id: 'adj_1',
        type: 'cancellation',
        occurredAt: '2026-03-10T12:00:00.000Z',
        status: 'completed',
        lines: [
          { id: 'l1', quantity: -1 },
          { id: 'l2', quantity: -2 },
        ],
        description: 'Buyer changed their mind',
      },
    ]);
    await expect(adapter.simulate(orderId, { type: 'cancel' })).rejects.toThrow(/already canceled/);
    await expect(adapter.simulate(orderId, { type: 'ship' })).rejects.toThrow(/canceled/);
  });

  it('applies concurrent simulations one after the other, losing none', async () => {
    const { adapter, orderId } = await placedOrder();
    await Promise.all([1, 2, 3].map(() => adapter.simulate(orderId, { type: 'ship', lines: [{ id: 'l1', quantity: 1 }] })));
    const order = (await adapter.getOrder(orderId))!;
    expect(order.events.map((e) => e.id)).toEqual(['evt_1', 'evt_2', 'evt_3']);
    expect(quantities(order.lines).l1).toEqual([3, 3]);
  });
});
