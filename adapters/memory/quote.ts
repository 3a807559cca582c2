/** A full quote: lines, fulfillment, discounts, tax and totals that add up exactly. */
import type { Quote, QuoteRequest } from '../contract.js';
import { applyDiscounts, groupRef } from './discounts.js';
import { availableMethods, quoteFulfillment } from './fulfillment.js';
import { priceLines } from './lines.js';
import type { StoreData } from './model.js';
import { computeTax } from './tax.js';

export function quote(data: StoreData, request: QuoteRequest, now: number): Quote {
  const { priced, problems } = priceLines(data, request.lines);
  const fulfillment = request.fulfillment && quoteFulfillment(data, request.fulfillment, priced, now);
  const groups = fulfillment?.groups ?? [];
  const discounts = applyDiscounts(data, request, priced, groups, now);
  const { tax, includedTax, taxLines } = computeTax(data, {
    lines: priced,
    groups,
    remaining: discounts.remaining,
    shippingDiscount: (g) => discounts.shippingDiscount.get(groupRef(g)) ?? 0,
    location: request.location,
  });

  const subtotal = priced.reduce((s, l) => s + l.quoted.subtotal, 0);
  const allocations = discounts.applied.flatMap((d) => d.allocations);
  const itemsDiscount = allocations.filter((a) => a.target.kind === 'line').reduce((s, a) => s + a.amount, 0);
  const discount = allocations.filter((a) => a.target.kind !== 'line').reduce((s, a) => s + a.amount, 0);
  const ships = priced.some((l) => l.quoted.requiresShipping);
  const selected = groups.filter((g) => g.selected);
  const shipping = !ships ? 0 : selected.length ? selected.reduce((s, g) => s + g.selected!.option.amount, 0) : null;

  return {
    currency: data.currency,
    lines: priced.map((l) => l.quoted),
    lineProblems: problems,
    discounts: { applied: discounts.applied, rejected: discounts.rejected },
    ...(fulfillment && { fulfillment: fulfillment.methods }),
    availableMethods: availableMethods(data, priced),
    taxLines,
    totals: {
      subtotal,
      itemsDiscount,
      discount,
      shipping,
      tax,
      ...(includedTax !== undefined && { includedTax }),
      total: subtotal - itemsDiscount - discount + (shipping ?? 0) + (tax ?? 0),
    },
  };
}
