/** Tax rules of tax.yaml with their rates as integers (parts per million), never floats. */
import type { TaxRule } from '../model.js';
import { fileError } from './read-file.js';
import type { TaxFile } from './tax-file.js';

/** "8.875" (percent) -> 88 750 ppm, by string arithmetic. */
function percentToPpm(rate: string): number {
  const [whole, fraction = ''] = rate.split('.');
  return Number(whole) * 10_000 + Number(fraction.padEnd(4, '0'));
}

export function buildTax(file: string, data: TaxFile): { rules: TaxRule[]; fallback: TaxRule } {
  const regions = new Set<string>();
  const rules = data.rules.map((r, i) => {
    if (regions.has(r.region)) throw fileError(file, `$.rules[${i}].region`, `"${r.region}" is listed twice`);
    regions.add(r.region);
    return { region: r.region, title: r.title, ppm: percentToPpm(r.rate), shippingTaxable: r.shipping_taxable };
  });
  const d = data.default;
  return { rules, fallback: { region: '', title: d.title, ppm: percentToPpm(d.rate), shippingTaxable: d.shipping_taxable } };
}
