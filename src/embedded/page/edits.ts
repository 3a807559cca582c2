/**
 * Edits the buyer makes, as update bodies. An update replaces the whole session (REST PUT), so
 * each body resends everything the page shows, with the one change applied.
 */
import type { Buyer, FulfillmentMethod, PostalAddress, Resource } from './model.js';

export type Edit =
  | { part: 'line_items'; quantities: Record<string, number> }
  | { part: 'discounts'; codes: string[] }
  | { part: 'buyer'; buyer: Buyer }
  | { part: 'fulfillment'; methods: MethodRequest[] };

export interface MethodRequest {
  id?: string;
  type: string;
  line_item_ids?: string[];
  destinations?: PostalAddress[];
  selected_destination_id?: string | null;
  groups?: Array<{ id: string; selected_option_id: string | null }>;
}

export function updateBody(resource: Resource, edit: Edit): Record<string, unknown> {
  const quantities = edit.part === 'line_items' ? edit.quantities : {};
  const body: Record<string, unknown> = {
    line_items: resource.line_items
      .map((line) => ({ id: line.id, item: { id: line.item.id }, quantity: quantities[line.id] ?? line.quantity }))
      .filter((line) => line.quantity > 0),
  };
  const buyer = edit.part === 'buyer' ? edit.buyer : resource.buyer;
  if (buyer && Object.keys(buyer).length > 0) body.buyer = buyer;
  if (resource.context) body.context = resource.context;
  if (resource.discounts) body.discounts = { codes: edit.part === 'discounts' ? edit.codes : (resource.discounts.codes ?? []) };
  if (resource.fulfillment)
    body.fulfillment = { methods: edit.part === 'fulfillment' ? edit.methods : methodRequests(resource.fulfillment.methods) };
  return body;
}

/**
 * The store's first option for every delivery group still without one (the store lists its
 * options in its own order: the demo, standard first), as the edit choosing them; undefined when
 * every group has one. The buyer may change it like any other choice.
 */
export function defaultOptions(resource: Resource): Edit | undefined {
  const methods = resource.fulfillment?.methods ?? [];
  const open = (group: NonNullable<FulfillmentMethod['groups']>[number]) => !group.selected_option_id && (group.options ?? []).length > 0;
  if (!methods.some((method) => (method.groups ?? []).some(open))) return undefined;
  const first = new Map(methods.flatMap((m) => (m.groups ?? []).filter(open).map((g) => [g.id, g.options![0]!.id] as const)));
  return {
    part: 'fulfillment',
    methods: methodRequests(methods).map((m) => ({
      ...m,
      groups: m.groups?.map((g) => ({ ...g, selected_option_id: g.selected_option_id ?? first.get(g.id) ?? null })),
    })),
  };
}

/** The methods as the session holds them, in request form (what update_checkout takes back). */
export function methodRequests(methods: readonly FulfillmentMethod[]): MethodRequest[] {
  return methods.map((method) => ({
    id: method.id,
    type: method.type,
    line_item_ids: method.line_item_ids,
    ...(method.type === 'shipping' && method.destinations && { destinations: method.destinations.map(stripName) }),
    selected_destination_id: method.selected_destination_id ?? null,
    groups: (method.groups ?? []).map((group) => ({ id: group.id, selected_option_id: group.selected_option_id ?? null })),
  }));
}

const stripName = ({ name: _name, address: _address, ...address }: PostalAddress & { name?: string; address?: PostalAddress }) => address;
