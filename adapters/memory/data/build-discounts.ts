/**
 * Discount codes (discounts.csv + discounts.yaml) and automatic promotions (promotions.csv +
 * promotions.yaml) as normalized rules, with every product, customer and service level they name
 * checked to exist.
 */
import type { DiscountRule, DiscountType } from '../model.js';
import type { DiscountRow, PromotionRow } from './csv-files.js';
import type { DiscountsFile, PromotionsFile } from './discounts-file.js';
import { fileError } from './read-file.js';

type YamlRule = DiscountsFile['codes'][number] | PromotionsFile['promotions'][number];

export interface DiscountSources {
  codes: { file: string; data: DiscountsFile };
  codeRows: { file: string; rows: DiscountRow[] };
  promotions: { file: string; data: PromotionsFile };
  promotionRows: { file: string; rows: PromotionRow[] };
  known: { products: Set<string>; customers: Set<string>; serviceLevels: Set<string> };
}

const DEFAULT_PRIORITY = { automatic: 10, code: 20 };

interface Base {
  title: string;
  type: DiscountType;
  value: number;
  products?: string[];
  minSubtotal?: number;
}

/** The CSV row's fields, or the YAML entry's own when there is no row (never both). */
function resolveBase(entry: YamlRule, at: string, file: string, row: Base | undefined, csvFile: string): Base {
  if (row) {
    for (const field of ['title', 'type', 'value'] as const) {
      if (entry[field] !== undefined) throw fileError(file, `${at}.${field}`, `repeats ${csvFile}: remove it`);
    }
    if (row.products && entry.applies_to) throw fileError(file, `${at}.applies_to`, `repeats the eligible items of ${csvFile}`);
    if (row.minSubtotal && entry.min_subtotal) throw fileError(file, `${at}.min_subtotal`, `repeats ${csvFile}`);
    return row;
  }
  if (!entry.title || !entry.type) throw fileError(file, at, 'needs title and type (it is not in the CSV)');
  if (entry.type === 'free_shipping' ? entry.value !== undefined : entry.value === undefined) {
    throw fileError(file, `${at}.value`, entry.type === 'free_shipping' ? 'is not used by free_shipping' : 'is required');
  }
  if (entry.type === 'percentage' && entry.value! > 100) throw fileError(file, `${at}.value`, 'must be <= 100 (percent)');
  return { title: entry.title, type: entry.type, value: entry.value ?? 0 };
}

function normalize(
  entry: YamlRule,
  at: string,
  file: string,
  base: Base,
  automatic: boolean,
  known: DiscountSources['known'],
): DiscountRule {
  const products = base.products ?? entry.applies_to?.products;
  for (const [i, id] of (products ?? []).entries()) {
    if (!known.products.has(id)) throw fileError(file, `${at}.applies_to.products[${i}]`, `"${id}" is not a catalog product`);
  }
  for (const [i, level] of (entry.service_levels ?? []).entries()) {
    if (!known.serviceLevels.has(level))
      throw fileError(file, `${at}.service_levels[${i}]`, `"${level}" is not a service level of the shipping rates`);
  }
  if (entry.service_levels && base.type !== 'free_shipping') throw fileError(file, `${at}.service_levels`, 'is only for free_shipping');
  const code = 'code' in entry ? entry : undefined;
  for (const [i, id] of (code?.customers ?? []).entries()) {
    if (!known.customers.has(id)) throw fileError(file, `${at}.customers[${i}]`, `"${id}" is not in customers.csv`);
  }
  const minSubtotal = base.minSubtotal ?? entry.min_subtotal;
  const eligibility = 'eligibility' in entry ? entry.eligibility : undefined;
  return {
    key: code ? code.code.toUpperCase() : (entry as PromotionsFile['promotions'][number]).id,
    automatic,
    title: base.title,
    type: base.type,
    value: base.value,
    method: entry.method ?? 'across',
    priority: entry.priority ?? (automatic ? DEFAULT_PRIORITY.automatic : DEFAULT_PRIORITY.code),
    ...(products && { products: new Set(products) }),
    ...(entry.applies_to?.categories && { categories: new Set(entry.applies_to.categories.map((c) => c.toLowerCase())) }),
    ...(entry.service_levels && { serviceLevels: new Set(entry.service_levels) }),
    ...(minSubtotal !== undefined && { minSubtotal }),
    ...(entry.min_quantity !== undefined && { minQuantity: entry.min_quantity }),
    ...(entry.starts_at && { startsAt: Date.parse(entry.starts_at) }),
    ...(entry.ends_at && { endsAt: Date.parse(entry.ends_at) }),
    individualUse: code?.individual_use ?? false,
    requiresLogin: code?.requires_login ?? false,
    ...(code?.customers && { customers: new Set(code.customers) }),
    ...(code?.emails && { emails: new Set(code.emails.map((e) => e.toLowerCase())) }),
    ...(eligibility && { eligibility }),
  };
}

function parseItemIds(row: PromotionRow, file: string, index: number): string[] | undefined {
  if (row.eligible_item_ids === '') return undefined;
  try {
    const ids: unknown = JSON.parse(row.eligible_item_ids);
    if (Array.isArray(ids) && ids.length > 0 && ids.every((id) => typeof id === 'string')) return ids;
  } catch {
    // reported below
  }
  throw fileError(file, `$[${index}].eligible_item_ids`, 'must be empty or a JSON array of product ids');
}

export function buildDiscounts(src: DiscountSources): { codes: Map<string, DiscountRule>; promotions: DiscountRule[] } {
  const csvCodes = new Map<string, Base>(
    src.codeRows.rows.map((r) => [r.code.toUpperCase(), { title: r.description, type: r.type, value: Number(r.value) }]),
  );
  const codes = new Map<string, DiscountRule>();
  src.codes.data.codes.forEach((entry, i) => {
    const at = `$.codes[${i}]`;
    const key = entry.code.toUpperCase();
    if (codes.has(key)) throw fileError(src.codes.file, `${at}.code`, `"${entry.code}" is listed twice (codes are case-insensitive)`);
    const base = resolveBase(entry, at, src.codes.file, csvCodes.get(key), src.codeRows.file);
    codes.set(key, normalize(entry, at, src.codes.file, base, false, src.known));
  });
  for (const [key, base] of csvCodes) {
    if (!codes.has(key)) codes.set(key, normalize({ code: key }, '$', src.codes.file, base, false, src.known));
  }

  const csvPromotions = new Map<string, Base>(
    src.promotionRows.rows.map((r, i) => {
      const products = parseItemIds(r, src.promotionRows.file, i);
      return [
        r.id,
        {
          title: r.description,
          type: r.type,
          value: 0,
          ...(products && { products }),
          ...(r.min_subtotal !== '' && { minSubtotal: Number(r.min_subtotal) }),
        },
      ];
    }),
  );
  const promotions: DiscountRule[] = [];
  const seen = new Set<string>();
  src.promotions.data.promotions.forEach((entry, i) => {
    const at = `$.promotions[${i}]`;
    if (seen.has(entry.id)) throw fileError(src.promotions.file, `${at}.id`, `"${entry.id}" is listed twice`);
    seen.add(entry.id);
    const base = resolveBase(entry, at, src.promotions.file, csvPromotions.get(entry.id), src.promotionRows.file);
    promotions.push(normalize(entry, at, src.promotions.file, base, true, src.known));
  });
  for (const [id, base] of csvPromotions) {
    if (!seen.has(id)) promotions.push(normalize({ id }, '$', src.promotions.file, base, true, src.known));
  }
  return { codes, promotions };
}
