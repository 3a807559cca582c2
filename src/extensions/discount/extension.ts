/**
 * The discount extension (spec part 1 §2.7, §4.4) on carts and checkouts: codes in (replace
 * semantics), codes echoed and active discounts out, refused codes as warnings, and eligibility
 * claims priced. Without it, the codes a session holds are kept unused and no claim is priced;
 * automatic discounts still show in totals.
 */
import { DiscountMembers } from '../../../schemas/discount.js';
import { CAPABILITY } from '../../protocol/capability-registry.js';
import type { Extension, ExtensionContext, Priced, RenderStep, SessionBasics } from '../extension.js';
import { renderDiscounts, submittedCodes } from './discounts-member.js';
import { unacceptedClaims } from './eligibility.js';
import { rejectionMessages } from './rejections.js';

declare module '../extension.js' {
  interface CartExtensionState {
    /** As submitted; kept until replaced. */
    discountCodes: string[];
  }
  interface CheckoutExtensionState {
    /** As submitted (a cart's carried forward first). */
    discountCodes: string[];
  }
}

/** Codes and claims to price; claims nothing is priced for are told about. */
function price({
  ctx,
  active,
  session,
}: {
  ctx: ExtensionContext;
  active: boolean;
  session: SessionBasics & { discountCodes: readonly string[] };
}): Priced {
  const notices = unacceptedClaims(session.context?.eligibility, ctx.tenant.adapter.capabilities.acceptedClaims, active);
  return { ...(active && { quote: { discountCodes: session.discountCodes, eligibility: true } }), notices };
}

function render({ ctx, state, quote, pathOf }: RenderStep<{ discountCodes: readonly string[] }>) {
  return {
    members: { discounts: renderDiscounts(state.discountCodes, quote, pathOf) },
    messages: rejectionMessages(quote.discounts.rejected, ctx.tenant.adapter.capabilities.rejectionReasons),
  };
}

/** A checkout takes the codes of the cart it is made from, then those sent that the cart does not have. */
function checkoutCodes(
  active: boolean,
  carried: readonly string[],
  sent: readonly string[] | undefined,
  stored: readonly string[],
): string[] {
  if (!active) return [...carried, ...stored];
  const known = new Set(carried.map((code) => code.trim().toUpperCase()));
  return [...carried, ...(sent ?? []).filter((code) => !known.has(code.trim().toUpperCase()))];
}

export const discountExtension: Extension = {
  capability: CAPABILITY.discount,
  cart: {
    members: DiscountMembers,
    read: ({ active, request, stored }) => {
      const codes = stored?.discountCodes ?? [];
      return { discountCodes: active ? submittedCodes(request.discounts, codes) : [...codes] };
    },
    price,
    render,
  },
  checkout: {
    members: DiscountMembers,
    read: ({ active, request, stored, carried }) => ({
      state: { discountCodes: checkoutCodes(active, carried?.discountCodes ?? [], request.discounts?.codes, stored?.discountCodes ?? []) },
    }),
    price,
    render,
  },
};
