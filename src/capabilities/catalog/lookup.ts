/**
 * lookup_catalog (spec part 1 §4.1 lookup rules 1-6, §8): ids (product, variant, and the SKU or
 * handle when the store declares them) resolved by the store, deduplicated, each product once,
 * each shown variant with the request ids that reached it. Filters apply after resolution: a
 * variant named exactly drops out when it fails them; for a product id the representative is the
 * store's featured variant when it passes, else the first passing variant (buyable ones first),
 * still matched `featured`. Unknown ids are `info` `not_found` messages whose content is the id.
 */
import type { CatalogVariant, LookupResult } from '../../../adapters/contract.js';
import type { LookupRequest, Product, Variant } from '../../../schemas/catalog.js';
import type { Message } from '../../../schemas/common.js';
import type { OperationContext } from '../context.js';
import { success, type OperationResult } from '../operation.js';
import { ProtocolError } from '../../protocol/errors.js';
import { infoMessage } from '../../protocol/messages.js';
import { catalogOf } from './catalog-cache.js';
import { readFilters } from './filters.js';
import { toProduct } from './product-shape.js';
import { buyableFirst, VariantScreen } from './variant-screen.js';

type Inputs = NonNullable<Variant['inputs']>;

/** The variants of one resolved product to show, each with its inputs, after the filters. */
function chooseVariants(result: LookupResult, screen: VariantScreen): { variants: CatalogVariant[]; inputs: Map<string, Inputs> } {
  const { product } = result;
  const inputs = new Map<string, Inputs>();
  if (!screen.inCategories(product)) return { variants: [], inputs };
  const passing = product.variants.filter((v) => screen.passes(v));
  for (const input of result.inputs) {
    const named = passing.find((v) => v.id === input.variantId);
    const variant = named ?? (input.match === 'featured' ? buyableFirst(passing)[0] : undefined);
    if (!variant) continue;
    const list = inputs.get(variant.id) ?? [];
    if (!list.some((i) => i.id === input.id)) list.push({ id: input.id, match: input.match });
    inputs.set(variant.id, list);
  }
  return { variants: product.variants.filter((v) => inputs.has(v.id)), inputs };
}

export async function lookupCatalog(ctx: OperationContext, request: LookupRequest): Promise<OperationResult> {
  // Distinct ids with the position each first appears at (for the not_found message path).
  const firstIndex = new Map<string, number>();
  request.ids.forEach((id, i) => firstIndex.has(id) || firstIndex.set(id, i));
  const ids = [...firstIndex.keys()];
  const limit = ctx.tenant.policies.lookupBatchLimit;
  if (ids.length > limit) {
    throw new ProtocolError(
      'request_too_large',
      `$.ids has ${ids.length} distinct ids; this store looks up at most ${limit} per request: split the batch`,
    );
  }
  const reader = catalogOf(ctx.tenant, ctx.now, ctx.client);
  const filters = await readFilters(ctx, reader, request, 'lookup');
  const results = await reader.lookup(ids);

  const resolved = new Set(results.flatMap((r) => r.inputs.map((i) => i.id)));
  const notFound: Message[] = ids
    .filter((id) => !resolved.has(id))
    .map((id) => infoMessage('not_found', id, `$.ids[${firstIndex.get(id)}]`));

  const screen = await VariantScreen.of(
    filters,
    results.map((r) => r.product),
  );
  const shown = results.map((r) => ({ product: r.product, ...chooseVariants(r, screen) })).filter((s) => s.variants.length > 0);
  const extensions = await screen.extensionMembers(shown.flatMap((s) => s.variants));
  const products: Product[] = shown.map(({ product, variants, inputs }) => toProduct(product, { variants, inputs, extensions }));

  const messages = [...notFound, ...filters.messages];
  return success({ products, ...(messages.length > 0 && { messages }) });
}
