/**
 * get_product (spec part 1 §4.1 get_product rules 1-6): one product with interactive option
 * selection. A variant id (or SKU) fixes the selection to its options, comes first and wins over
 * `selected`; a product id (or handle) takes `selected` with relaxation, or the featured variant's
 * options when none are sent. Variants shown: the requested one, those matching the effective
 * selection (buyable first), then the featured one; filters then remove what fails them, and a
 * product left with none is `not_found` like an unknown id.
 */
import type { CatalogProduct, CatalogVariant } from '../../../adapters/contract.js';
import type { GetProductRequest, SelectedOption } from '../../../schemas/catalog.js';
import type { OperationContext } from '../context.js';
import { failure, success, type OperationResult } from '../operation.js';
import { ProtocolError } from '../../protocol/errors.js';
import { errorMessage } from '../../protocol/messages.js';
import { catalogOf } from './catalog-cache.js';
import { readFilters } from './filters.js';
import { matches } from './option-matrix.js';
import { toProduct } from './product-shape.js';
import { canonicalSelection, relax } from './selection.js';
import { buyableFirst, VariantScreen } from './variant-screen.js';

const notFound = (content: string, path: string) => failure([errorMessage('not_found', content, 'unrecoverable', path)]);

function checkSelected(selected: readonly SelectedOption[]): void {
  const seen = new Set<string>();
  selected.forEach((s, i) => {
    const name = s.name.toLowerCase();
    if (seen.has(name))
      throw new ProtocolError(
        'invalid_request',
        `$.selected[${i}].name repeats ${JSON.stringify(s.name)}: select each option at most once`,
      );
    seen.add(name);
  });
}

function effectiveSelection(product: CatalogProduct, requested: CatalogVariant | undefined, request: GetProductRequest): SelectedOption[] {
  const fixed = requested ?? (request.selected?.length ? undefined : product.variants.find((v) => v.id === product.featuredVariantId));
  if (fixed) return fixed.options.map((o) => ({ name: o.name, label: o.value }));
  return relax(product, canonicalSelection(product, request.selected ?? []), request.preferences);
}

export async function getProduct(ctx: OperationContext, request: GetProductRequest): Promise<OperationResult> {
  if (request.selected) checkSelected(request.selected);
  const reader = catalogOf(ctx.tenant, ctx.now, ctx.client);
  const filters = await readFilters(ctx, reader, request, 'lookup');
  // The caller's selection lets a store that lists only some variants include the selected one.
  const wanted = request.selected?.map((s) => ({ name: s.name, value: s.label }));
  const [result] = await reader.lookup([request.id], undefined, wanted?.length ? { selected: wanted } : undefined);
  const input = result?.inputs[0];
  if (!result || !input) return notFound(`No product or variant has the id ${JSON.stringify(request.id)}.`, '$.id');

  const { product } = result;
  const requested = input.match === 'exact' ? product.variants.find((v) => v.id === input.variantId) : undefined;
  const selected = effectiveSelection(product, requested, request);
  const featured = product.variants.find((v) => v.id === product.featuredVariantId);
  const candidates = [requested, ...buyableFirst(product.variants.filter((v) => matches(v, selected))), featured];

  const screen = await VariantScreen.of(filters, [product]);
  const variants = screen.inCategories(product)
    ? [...new Set(candidates)].filter((v): v is CatalogVariant => v !== undefined && screen.passes(v))
    : [];
  if (variants.length === 0) return notFound(`${product.title} has no variant that passes the filters.`, '$.filters');

  const extensions = await screen.extensionMembers(variants);
  const configurable = product.options.length > 0;
  const body = toProduct(product, { variants, selection: selected, ...(configurable && { selected }), extensions });
  return success({ product: body, ...(filters.messages.length > 0 && { messages: filters.messages }) });
}
