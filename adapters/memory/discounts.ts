/**
 * Discount codes and automatic promotions, priced the way the store's checkout would.
 *
 * Codes are judged in the order submitted (case-insensitive): unknown or not yet started ->
 * invalid; past ends_at -> expired; the same code again -> already_applied; a login or customer
 * restriction without a logged-in buyer -> user_not_logged_in, with the wrong one ->
 * user_ineligible; nothing qualifying -> not_applicable; an individual-use code with any other
 * accepted code -> combination_disallowed (the first accepted code wins).
 *
 * Then every accepted code and every automatic promotion whose conditions hold is applied in
 * stacking order (priority, automatic before codes, then submission order), each on what the
 * earlier ones left; free shipping comes last and takes the selected option of the groups it
 * covers. Conditions (min_subtotal, min_quantity) are judged before any discount.
 */
import type { AllocationTarget, AppliedDiscount, BuyerIdentity, DiscountRejection, Quote, QuoteRequest } from '../contract.js';
import { fromMinorUnits } from '../kit/money.js';
import type { GroupState } from './fulfillment.js';
import type { PricedLine } from './lines.js';
import type { DiscountRule, StoreData } from './model.js';
import { allocate, mulDivRoundHalfUp } from './money-math.js';

export interface DiscountResult {
  applied: AppliedDiscount[];
  rejected: Quote['discounts']['rejected'];
  /** Line amount left after line discounts, by line id. */
  remaining: Map<string, number>;
  /** Shipping discount per group, by `${methodId}\u0000${key}`. */
  shippingDiscount: Map<string, number>;
}

export const groupRef = (g: Pick<GroupState, 'methodId' | 'key'>) => `${g.methodId}\u0000${g.key}`;

const isEligible = (rule: DiscountRule, line: PricedLine) =>
  (!rule.products && !rule.categories) || rule.products?.has(line.quoted.productId) === true || inCategories(line, rule.categories);

function eligibleLines(rule: DiscountRule, lines: PricedLine[]): PricedLine[] {
  if (!rule.products && !rule.categories) return lines;
  return lines.filter((l) => isEligible(rule, l));
}

function inCategories(line: PricedLine, categories: ReadonlySet<string> | undefined): boolean {
  if (categories) for (const c of line.source.categories) if (categories.has(c)) return true;
  return false;
}

/** Why the cart does not qualify, or null when it does. */
function unmetCondition(rule: DiscountRule, lines: PricedLine[], currency: string): string | null {
  // One pass over the eligible lines (free shipping counts only the shipped ones): every quote judges every promotion.
  let eligible = 0;
  let subtotal = 0;
  let units = 0;
  for (const l of lines) {
    if ((rule.type === 'free_shipping' && !l.quoted.requiresShipping) || !isEligible(rule, l)) continue;
    eligible += 1;
    subtotal += l.quoted.subtotal;
    units += l.quoted.quantity;
  }
  if (eligible === 0) return rule.type === 'free_shipping' ? 'Nothing in the cart is shipped.' : 'No item in the cart qualifies.';
  if (rule.minSubtotal !== undefined && subtotal < rule.minSubtotal) {
    return `Needs a subtotal of at least ${fromMinorUnits(rule.minSubtotal, currency)} ${currency} on eligible items.`;
  }
  if (rule.minQuantity !== undefined && units < rule.minQuantity) return `Needs at least ${rule.minQuantity} eligible items.`;
  return null;
}

function identityProblem(data: StoreData, rule: DiscountRule, identity: BuyerIdentity | undefined): DiscountRejection | null {
  const restricted = rule.customers || rule.emails;
  if (!rule.requiresLogin && !restricted) return null;
  if (!identity) return 'user_not_logged_in';
  if (!restricted) return null;
  const email = (identity.email ?? data.customerEmails.get(identity.customerId))?.toLowerCase();
  return rule.customers?.has(identity.customerId) || (email !== undefined && rule.emails?.has(email)) ? null : 'user_ineligible';
}

interface Accepted {
  rule: DiscountRule;
  code?: string;
  order: number;
}

function judgeCodes(data: StoreData, request: QuoteRequest, lines: PricedLine[], now: number) {
  const accepted: Accepted[] = [];
  const rejected: DiscountResult['rejected'] = [];
  request.discountCodes.forEach((code, index) => {
    const reject = (reason: DiscountRejection, detail?: string) => rejected.push({ code, index, reason, ...(detail && { detail }) });
    const key = code.trim().toUpperCase();
    const rule = data.codes.get(key);
    if (!rule || (rule.startsAt !== undefined && now < rule.startsAt)) return reject('invalid');
    if (accepted.some((a) => a.rule === rule)) return reject('already_applied');
    if (rule.endsAt !== undefined && now >= rule.endsAt) return reject('expired');
    const identity = identityProblem(data, rule, request.identity);
    if (identity) return reject(identity);
    const unmet = unmetCondition(rule, lines, data.currency);
    if (unmet) return reject('not_applicable', unmet);
    if (accepted.length > 0 && (rule.individualUse || accepted.some((a) => a.rule.individualUse))) {
      return reject('combination_disallowed', `${code} cannot be combined with ${accepted.map((a) => a.code).join(', ')}.`);
    }
    accepted.push({ rule, code, order: index });
  });
  return { accepted, rejected };
}

function activePromotions(data: StoreData, request: QuoteRequest, lines: PricedLine[], now: number): Accepted[] {
  const active: Accepted[] = [];
  data.promotions.forEach((rule, order) => {
    if (rule.eligibility && !request.eligibilityClaims?.includes(rule.eligibility)) return;
    if ((rule.startsAt !== undefined && now < rule.startsAt) || (rule.endsAt !== undefined && now >= rule.endsAt)) return;
    if (!unmetCondition(rule, lines, data.currency)) active.push({ rule, order });
  });
  return active;
}

/** Allocations of one line discount over what earlier discounts left. */
function lineAllocations(rule: DiscountRule, lines: PricedLine[], remaining: Map<string, number>): number[] {
  const bases = lines.map((l) => remaining.get(l.quoted.lineId)!);
  if (rule.method === 'each') {
    return lines.map((l, i) =>
      rule.type === 'percentage' ? mulDivRoundHalfUp(bases[i]!, rule.value, 100) : Math.min(bases[i]!, rule.value * l.quoted.quantity),
    );
  }
  const base = bases.reduce((s, b) => s + b, 0);
  const amount = rule.type === 'percentage' ? mulDivRoundHalfUp(base, rule.value, 100) : Math.min(base, rule.value);
  return allocate(amount, bases);
}

const stackingOrder = (a: Accepted, b: Accepted) =>
  Number(a.rule.type === 'free_shipping') - Number(b.rule.type === 'free_shipping') ||
  a.rule.priority - b.rule.priority ||
  Number(b.rule.automatic) - Number(a.rule.automatic) ||
  a.order - b.order;

/** The codes a quote of `lines` applies, in stacking order (the `code`s of its applied discounts), without pricing them. */
export function appliedCodes(data: StoreData, request: QuoteRequest, lines: PricedLine[], now: number): string[] {
  return judgeCodes(data, request, lines, now)
    .accepted.sort(stackingOrder)
    .map((a) => a.code!);
}

export function applyDiscounts(
  data: StoreData,
  request: QuoteRequest,
  lines: PricedLine[],
  groups: GroupState[],
  now: number,
): DiscountResult {
  const { accepted, rejected } = judgeCodes(data, request, lines, now);
  const stack = [...activePromotions(data, request, lines, now), ...accepted].sort(stackingOrder);
  const remaining = new Map(lines.map((l) => [l.quoted.lineId, l.quoted.subtotal]));
  const shippingLeft = new Map(groups.map((g) => [groupRef(g), g.selected?.option.amount ?? 0]));
  const applied = stack.map(({ rule, code }, position): AppliedDiscount => {
    const allocations: AppliedDiscount['allocations'] = [];
    const add = (target: AllocationTarget, amount: number) => {
      if (amount > 0) allocations.push({ target, amount });
    };
    if (rule.type === 'free_shipping') {
      const eligible = new Set(eligibleLines(rule, lines));
      for (const g of groups) {
        const covered =
          g.selected && (!rule.serviceLevels || (g.selected.serviceLevel !== undefined && rule.serviceLevels.has(g.selected.serviceLevel)));
        if (!covered || !g.lines.some((l) => eligible.has(l))) continue;
        const amount = shippingLeft.get(groupRef(g))!;
        shippingLeft.set(groupRef(g), 0);
        add({ kind: 'shipping', methodId: g.methodId, groupKey: g.key }, amount);
      }
    } else {
      const eligible = eligibleLines(rule, lines);
      lineAllocations(rule, eligible, remaining).forEach((amount, i) => {
        const id = eligible[i]!.quoted.lineId;
        remaining.set(id, remaining.get(id)! - amount);
        add({ kind: 'line', lineId: id }, amount);
      });
    }
    return {
      ...(code !== undefined && { code }),
      title: rule.title,
      amount: allocations.reduce((s, a) => s + a.amount, 0),
      automatic: rule.automatic,
      method: rule.method,
      priority: position + 1,
      ...(rule.eligibility && { provisional: true, eligibility: rule.eligibility }),
      allocations,
    };
  });
  const shippingDiscount = new Map(groups.map((g) => [groupRef(g), (g.selected?.option.amount ?? 0) - shippingLeft.get(groupRef(g))!]));
  return { applied, rejected, remaining, shippingDiscount };
}
