/**
 * The fulfillment extension on checkout (spec part 1 §2.8, §4.5): the platform's methods,
 * destinations and options in, the store's groups and options out, and what is still missing
 * before the checkout can be completed. Without it, the methods a session holds are kept unused,
 * nothing is priced for delivery, and physical lines hand the buyer to the store (status.ts).
 * In the catalog, its filters and variants' fulfillment are catalog-step.ts.
 */
import { FulfillmentMembers } from '../../../schemas/fulfillment.js';
import { CAPABILITY } from '../../protocol/capability-registry.js';
import type { Extension } from '../extension.js';
import { fulfillmentCatalog } from './catalog-step.js';
import { fulfillmentAllocationPath, renderFulfillment } from './fulfillment-member.js';
import { fulfillmentGaps } from './gaps.js';
import type { AskedOption, StoredMethod } from './method-record.js';
import { readFulfillmentRequest } from './method-request.js';
import { multiGroup } from './multi-group.js';
import { applyLooseOptions, methodRequests, untakenOptions } from './quote-methods.js';

declare module '../extension.js' {
  interface CheckoutExtensionState {
    /** The methods as the platform sent them, with the business's ids. */
    fulfillment: StoredMethod[];
  }
  interface CheckoutAsks {
    /** Options selected in the request, checked against the quote. */
    fulfillmentOptions: AskedOption[];
  }
}

export const fulfillmentExtension: Extension = {
  capability: CAPABILITY.fulfillment,
  catalog: fulfillmentCatalog,
  checkout: {
    members: FulfillmentMembers,
    read: async ({ active, request, stored, locations }) => {
      if (!active) return { state: { fulfillment: stored?.fulfillment ?? [] } };
      const read = await readFulfillmentRequest(request.fulfillment, stored?.fulfillment ?? [], locations);
      return { state: { fulfillment: read.methods }, asks: { fulfillmentOptions: read.asked }, messages: read.messages };
    },
    price: ({ ctx, active, session }) => {
      if (!active) return {};
      const lineIds = session.lines.map((line) => line.id);
      return { quote: { fulfillment: { methods: methodRequests(session.fulfillment, lineIds), multiGroup: multiGroup(ctx) } } };
    },
    settle: ({ state, asks, quote }) => {
      const methods = applyLooseOptions(state.fulfillment, asks.fulfillmentOptions ?? [], quote);
      return methods && { fulfillment: methods };
    },
    untaken: ({ asks, quote }) => untakenOptions(asks.fulfillmentOptions ?? [], quote),
    needsLocations: (state) => state.fulfillment.some((m) => m.type === 'pickup'),
    allocationPath: ({ state, quote }) => fulfillmentAllocationPath(state.fulfillment, quote),
    render: ({ state, quote, locations }) => ({ members: { fulfillment: renderFulfillment(state.fulfillment, quote, locations) } }),
    gaps: (state, quote) => fulfillmentGaps(state.fulfillment, quote),
    delivers: true,
  },
};
