/**
 * The Admin API's calculated query cost, roughly (https://shopify.dev/docs/apps/build/apis/graphql-admin/rate-limits:
 * "Every field in the schema has an integer cost value"; connections count by their page size).
 * Answered in `extensions.cost` with a bucket of 2,000 points restoring 100 a second (the
 * Standard plan's rate); the throttle itself (THROTTLED with HTTP 200) is injected as a fault.
 */
import { Kind, type DocumentNode } from 'graphql';

/** Shopify's rough cost: one point per field selected, connections by their page size. */
export function queryCost(document: DocumentNode): number {
  let cost = 0;
  const visit = (node: { selectionSet?: { selections: readonly unknown[] } }, multiplier: number) => {
    for (const selection of (node.selectionSet?.selections ?? []) as Array<{
      kind: string;
      arguments?: readonly { name: { value: string }; value: { kind: Kind; value?: string } }[];
      selectionSet?: { selections: readonly unknown[] };
    }>) {
      const first = selection.arguments?.find((a) => a.name.value === 'first' && a.value.kind === Kind.INT)?.value.value;
      cost += multiplier;
      visit(selection, first ? Math.min(Number(first), 250) : multiplier);
    }
  };
  for (const definition of document.definitions) if (definition.kind === Kind.OPERATION_DEFINITION) visit(definition, 1);
  return Math.max(1, Math.round(cost / 10));
}
