/**
 * The fulfillment extension in the catalog: `filters.fulfills_to` and `filters.methods` screen
 * variants, and each variant shown reports its `fulfillment` (catalog-discovery.ts plans and asks).
 * What the variants are screened on is asked for up front; the report only for variants shown.
 */
import type { VariantFulfillment } from '../../../adapters/contract.js';
import type { Variant } from '../../../schemas/catalog.js';
import type { CatalogPart, CatalogSource, CatalogSteps } from '../extension.js';
import { discover, fulfills, planDiscovery, toCatalogFulfillment, type DiscoveryPlan } from './catalog-discovery.js';

function discoveryPart(plan: DiscoveryPlan, source: CatalogSource): CatalogPart {
  const answers = new Map<string, VariantFulfillment>();
  const ask = async (variants: Parameters<CatalogPart['render']>[0]) => {
    for (const [id, answer] of await discover(plan, variants, (q) => source.discoverFulfillment(q))) answers.set(id, answer);
  };
  return {
    ...(plan.filtering && { narrows: plan }),
    prepare: async (variants) => {
      if (plan.filtering) await ask(variants);
    },
    passes: (variant) => fulfills(variant, answers.get(variant.id), plan),
    render: async (variants) => {
      const missing = variants.filter((v) => !answers.has(v.id));
      if (missing.length > 0) await ask(missing);
      return new Map(
        variants.flatMap((v) => {
          const answer = answers.get(v.id);
          const members: Partial<Variant> | undefined = answer && { fulfillment: toCatalogFulfillment(answer, v.price.currency) };
          return members ? [[v.id, members] as const] : [];
        }),
      );
    },
  };
}

export const fulfillmentCatalog: CatalogSteps = {
  filters: ['fulfills_to', 'methods'],
  read: async ({ ctx, filters, context, source }) => {
    const { fulfills_to, methods } = filters;
    const planned = await planDiscovery({
      supported: ctx.tenant.adapter.capabilities.fulfillmentDiscovery,
      ...(fulfills_to && { fulfillsTo: fulfills_to }),
      ...(methods && { methods }),
      ...(context && { context }),
      locations: () => source.pickupLocations(),
    });
    return { ...(planned.plan && { part: discoveryPart(planned.plan, source) }), messages: planned.messages };
  },
};
