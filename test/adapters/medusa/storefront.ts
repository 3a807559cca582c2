/**
 * What a Medusa storefront does with a handed-off cart (the Next.js starter's checkout, over the
 * Store API): the buyer's email and address, a shipping method, a payment session with the
 * system provider, completion. Returns the order Medusa placed.
 */
import { toMedusaAddress } from '../../../adapters/medusa/cart.js';
import type { BuyerContact, PostalAddress } from '../../../adapters/contract.js';
import { medusaCall, type RunningMedusa } from '../../helpers/medusa-store.js';

export async function payOnStorefront(
  store: RunningMedusa,
  cartId: string,
  address: PostalAddress,
  buyer: BuyerContact & { email: string },
): Promise<string> {
  const shipping_address = toMedusaAddress({ firstName: buyer.firstName, lastName: buyer.lastName, ...address });
  await medusaCall(store, 'store', 'POST', `/store/carts/${cartId}`, {
    email: buyer.email,
    shipping_address,
    billing_address: shipping_address,
  });
  // The storefront keeps the method the buyer chose through the agent; Medusa lists options in no
  // fixed order, so without one it takes the cheapest, never simply the first.
  const { cart } = await medusaCall(store, 'store', 'GET', `/store/carts/${cartId}?fields=*shipping_methods`);
  const { shipping_options } = await medusaCall(store, 'store', 'GET', `/store/shipping-options?cart_id=${cartId}`);
  const options = shipping_options as Array<{ id: string; amount: number }>;
  const kept = (cart.shipping_methods as Array<{ shipping_option_id?: string }> | undefined)?.[0]?.shipping_option_id;
  const cheapest = options.reduce((a, b) => (b.amount < a.amount ? b : a));
  const optionId = kept && options.some((o) => o.id === kept) ? kept : cheapest.id;
  await medusaCall(store, 'store', 'POST', `/store/carts/${cartId}/shipping-methods`, { option_id: optionId });
  const { payment_collection } = await medusaCall(store, 'store', 'POST', '/store/payment-collections', { cart_id: cartId });
  await medusaCall(store, 'store', 'POST', `/store/payment-collections/${payment_collection.id}/payment-sessions`, {
    provider_id: 'pp_system_default',
  });
  const completed = await medusaCall(store, 'store', 'POST', `/store/carts/${cartId}/complete`);
  if (completed.type !== 'order') throw new Error(`the storefront could not complete cart ${cartId}: ${JSON.stringify(completed.error)}`);
  return completed.order.id as string;
}
