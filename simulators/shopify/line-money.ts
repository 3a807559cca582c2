/**
 * How Shopify splits a priced order onto its lines: which discount applications exist, what each
 * allocates to every line and to the shipping line, and each line's share of every tax. The Admin
 * Order, DraftOrder and their line items are presented from this.
 *
 * Discount levels (Admin 2026-10 schema): a discount on the whole order (`targetSelection: ALL`,
 * "amount off order") is an order-level discount; a discount on entitled items (`ENTITLED`) is a
 * line-level one. `LineItem.totalDiscountSet` and `discountedTotalSet` leave order-level
 * discounts out, `LineItem.discountAllocations` has them all. The engine's `each` discounts are
 * the line-level ones, as the Storefront cart already presents them
 * (`CartLine.discountAllocations(lineLevelOnly:)`).
 */
import type { AppliedDiscount, Quote, QuoteRequest } from '../../adapters/contract.js';
import { allocate } from '../../adapters/memory/money-math.js';
import type { StoreData } from '../../adapters/memory/model.js';
import { taxBases } from './pricing.js';

export interface DiscountApplicationRecord {
  index: number;
  /** The code as Shopify lists it (upper case); null for an automatic discount. */
  code: string | null;
  title: string;
  /** A discount on the whole order: Shopify's order-level discount (`targetSelection: ALL`). */
  orderLevel: boolean;
  targetType: 'LINE_ITEM' | 'SHIPPING_LINE';
  amount: number;
}

interface AllocationRecord {
  /** Index of the discount application. */
  application: number;
  amount: number;
}

export interface TaxShare {
  title: string;
  /** Rate in parts per million. */
  ppm: number;
  amount: number;
}

export interface PartMoney {
  allocations: AllocationRecord[];
  tax: TaxShare[];
}

export interface QuoteMoney {
  applications: DiscountApplicationRecord[];
  lines: Map<string, PartMoney>;
  shipping: PartMoney;
}

const sum = (values: number[]) => values.reduce((s, v) => s + v, 0);

function applicationOf(d: AppliedDiscount, index: number): DiscountApplicationRecord {
  const shipping = d.allocations.some((a) => a.target.kind === 'shipping');
  return {
    index,
    code: d.code ? d.code.toUpperCase() : null,
    title: d.title,
    orderLevel: !shipping && d.method !== 'each',
    targetType: shipping ? 'SHIPPING_LINE' : 'LINE_ITEM',
    amount: d.amount,
  };
}

/** The line-by-line money of a priced quote (`request` is what priced it, for the taxable bases). */
export function quoteMoney(data: StoreData, request: QuoteRequest, q: Quote, now: number): QuoteMoney {
  const applied = q.discounts.applied.filter((d) => d.amount > 0 || d.code);
  const applications = applied.map(applicationOf);
  const part = (): PartMoney => ({ allocations: [], tax: [] });
  const lines = new Map(q.lines.map((l) => [l.lineId, part()]));
  const shipping = part();
  applied.forEach((d, index) => {
    for (const a of d.allocations) {
      const target = a.target.kind === 'line' ? lines.get(a.target.lineId) : shipping;
      if (target && a.amount > 0) target.allocations.push({ application: index, amount: a.amount });
    }
  });
  const net = (l: Quote['lines'][number]) => l.subtotal - sum(lines.get(l.lineId)!.allocations.map((a) => a.amount));
  const lineNets = q.lines.map(net);
  const shippingNet = (q.totals.shipping ?? 0) - sum(shipping.allocations.map((a) => a.amount));
  const bases = q.taxLines.length ? taxBases(data, request, now) : [];
  for (const t of q.taxLines) {
    if (t.amount <= 0) continue;
    const base = bases.find((b) => b.title === t.title);
    // The rule taxed the shipping too when its taxable amount is more than the lines'.
    const shippingPart = Math.min(Math.max(0, (base?.base ?? 0) - sum(lineNets)), Math.max(0, shippingNet));
    const weights = [...lineNets.map((n) => Math.max(0, n)), shippingPart];
    const shares = sum(weights) > 0 ? allocate(t.amount, weights) : [t.amount];
    const ppm = base?.ppm ?? 0;
    q.lines.forEach((l, i) => {
      if (shares[i]) lines.get(l.lineId)!.tax.push({ title: t.title, ppm, amount: shares[i] });
    });
    if (shares[q.lines.length]) shipping.tax.push({ title: t.title, ppm, amount: shares[q.lines.length]! });
  }
  return { applications, lines, shipping };
}

/** The allocations of one kind of discount: Shopify's figures leave out order-level (and, by default, code) discounts. */
export function allocated(
  part: PartMoney,
  applications: DiscountApplicationRecord[],
  keep: (a: DiscountApplicationRecord) => boolean = () => true,
): number {
  return sum(part.allocations.filter((a) => keep(applications[a.application]!)).map((a) => a.amount));
}
