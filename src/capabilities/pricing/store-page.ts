/**
 * The store's page for a cart or checkout (`continue_url`), from the adapter's `checkoutUrl`
 * (a store API call), kept with the session with the fingerprint of what it was made for: a
 * later answer for the same reference, store cart and contents reuses it without asking again.
 */
import type { QuoteRequest } from '../../../adapters/contract.js';
import type { OperationContext } from '../context.js';
import { fingerprint } from '../../security/fingerprint.js';

export interface StorePage {
  url: string;
  /** Fingerprint of the reference, handle and contents the URL was made for. */
  key: string;
  /** The store-side object an order placed there comes from, when the store named one (`CheckoutPage.storeReference`). */
  storeReference?: string;
}

const pageKey = (reference: string, request: QuoteRequest) => fingerprint([reference, JSON.stringify(request)]);

/** The page for `request` (which carries the session's handle); `fresh` when the store was asked. */
export async function storePage(
  ctx: Pick<OperationContext, 'tenant' | 'client'>,
  reference: string,
  request: QuoteRequest,
  cached: StorePage | undefined,
): Promise<{ page: StorePage; handle?: string; fresh: boolean }> {
  // A session without a page (every new cart) has nothing to compare: no fingerprint to make.
  if (cached !== undefined && cached.key === pageKey(reference, request))
    return { page: cached, ...(request.handle && { handle: request.handle }), fresh: false };
  const answer = await ctx.tenant.adapter.checkoutUrl(
    { reference, ...(request.handle && { handle: request.handle }), quote: request },
    undefined,
    ctx.client,
  );
  const handle = answer.handle ?? request.handle;
  const made = handle === undefined ? { ...request } : { ...request, handle };
  const page: StorePage = {
    url: answer.url,
    key: pageKey(reference, made),
    ...(answer.storeReference && { storeReference: answer.storeReference }),
  };
  return { page, ...(handle && { handle }), fresh: true };
}
