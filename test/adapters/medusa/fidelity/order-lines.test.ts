/**
 * An order's lines and delivery promises as Medusa keeps them, on the real Medusa server. A return
 * leaves the order item's `quantity` alone and counts in its detail (`return_received_quantity`,
 * `return_dismissed_quantity`: order module utils/actions/receive-return-item.js and
 * receive-damaged-return-item.js); Medusa's own totals then use the quantity less those
 * (@medusajs/utils totals/line-item), and the order's `total` drops. An item without a shipping
 * profile needs no shipping (core-flows prepare-line-item-data: `requires_shipping`).
 */
import { describe, expect, it } from 'vitest';
import { medusaStore } from '../../../helpers/medusa-store.js';
import { adapterFor, BUYER, CHICAGO, lines, medusaOrder, readyQuote, reference, returnOnMedusa, shippingRequest } from './fixtures.js';

const store = medusaStore();
const suite = store ? describe : describe.skip;

suite('order lines and expectations (real Medusa server)', () => {
  it('a received return lowers the current quantity; the totals stay as charged; the e-book is delivered, not shipped', async () => {
    const adapter = await adapterFor(store!);
    try {
      const wanted = lines(store!, { bouquet_roses: 3, ebook_flower_care: 1 });
      const [roses, ebook] = wanted.map((l) => l.lineId);
      const { request, quote } = await readyQuote(adapter, shippingRequest({ lines: wanted }, CHICAGO));
      const placed = await adapter.placeOrder({
        reference: reference('returns'),
        quote: request,
        expectedTotal: quote.totals.total,
        buyer: BUYER,
        payment: { mode: 'gateway_charged', record: { handlerId: 'sandbox', transactionId: 'tx_returns', amount: quote.totals.total } },
      });
      const orderId = (placed as { orderId: string }).orderId;

      const before = (await adapter.getOrder(orderId))!;
      const idOf = (lineId: string) => before.lines.find((l) => l.checkoutLineId === lineId)!.id;
      expect(before.expectations.map((e) => [e.method, e.lines, e.destination?.locality])).toEqual([
        ['shipping', [{ id: idOf(roses!), quantity: 3 }], 'Chicago'],
        ['digital', [{ id: idOf(ebook!), quantity: 1 }], undefined],
      ]);

      const returnId = await returnOnMedusa(store!, orderId, idOf(roses!), 1);
      const medusa = await medusaOrder(store!, orderId, 'id,total');
      expect(Math.round(medusa.total * 100)).toBe(quote.totals.total - 3500);

      const after = (await adapter.getOrder(orderId))!;
      expect(Object.fromEntries(after.lines.map((l) => [l.checkoutLineId, l.quantity]))).toEqual({
        [roses!]: { original: 3, current: 2, fulfilled: 3 },
        [ebook!]: { original: 1, current: 1, fulfilled: 0 },
      });
      expect(after.totals).toEqual(quote.totals);
      expect(after.adjustments).toContainEqual(
        expect.objectContaining({ id: returnId, type: 'return', status: 'completed', lines: [{ id: idOf(roses!), quantity: -1 }] }),
      );
    } finally {
      await adapter.close();
    }
  });
});
