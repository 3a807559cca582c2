/** A checkout ready to place on a simulated store (roses shipped to Chicago, the first rate chosen), and the ways to pay for it. */
import type { PlaceOrderRequest, QuoteRequest } from '../../../../adapters/contract.js';
import type { SimOrder } from '../../../../simulators/woocommerce/model.js';
import { ADDRESS, BUYER, type WooSubject } from '../harness.js';

export function rosesRequest(subject: WooSubject, selected?: string, handle?: string, quantity = 2): QuoteRequest {
  return {
    ...(handle && { handle }),
    lines: [{ lineId: 'li_1', variantId: String(subject.sim.controls.idOf('bouquet_roses')), quantity }],
    buyer: BUYER,
    discountCodes: [],
    fulfillment: {
      multiGroup: false,
      methods: [
        {
          methodId: 'm_1',
          type: 'shipping',
          lineIds: ['li_1'],
          destination: { address: ADDRESS },
          ...(selected && { selectedOptions: { 'package-0': selected } }),
        },
      ],
    },
  };
}

/** Priced twice, as a checkout is: once open, once with the first rate selected. */
export async function readyCheckout(subject: WooSubject, quantity = 2) {
  const open = await subject.adapter.quote(rosesRequest(subject, undefined, undefined, quantity));
  const rate = open.fulfillment![0]!.groups[0]!.options[0]!.id;
  const request = rosesRequest(subject, rate, open.handle, quantity);
  const quote = await subject.adapter.quote(request);
  return { request, quote };
}

export function storeCharged(
  ready: Awaited<ReturnType<typeof readyCheckout>>,
  reference: string,
  token: string,
  buyer: PlaceOrderRequest['buyer'] = BUYER,
): PlaceOrderRequest {
  return {
    reference,
    quote: ready.request,
    expectedTotal: ready.quote.totals.total,
    buyer,
    payment: { mode: 'store_charged', handlerId: 'card', credential: { type: 'card', token } },
  };
}

export function gatewayCharged(ready: Awaited<ReturnType<typeof readyCheckout>>, reference: string): PlaceOrderRequest {
  const amount = ready.quote.totals.total;
  return {
    reference,
    quote: ready.request,
    expectedTotal: amount,
    buyer: BUYER,
    payment: { mode: 'gateway_charged', record: { handlerId: 'sandbox', transactionId: `txn_${reference}`, amount } },
  };
}

/** The store's orders carrying `reference` in their meta. */
export const ordersOf = (subject: WooSubject, reference: string): SimOrder[] =>
  [...subject.sim.store.orders.values()].filter((o) => o.meta.some((m) => m.key === '_proto_reference' && m.value === reference));
