/**
 * The checkout update an agent sends to pick a delivery: the checkout's lines as they are, and
 * its first fulfillment method with the first option of every group selected (stores list the
 * cheapest first). Shared by the adapter bench and the tests that walk a checkout to ready.
 */
interface Answer {
  line_items: Array<{ id: string; item: { id: string }; quantity: number }>;
  fulfillment: {
    methods: Array<{
      id: string;
      destinations: unknown;
      selected_destination_id?: string;
      groups: Array<{ id: string; options: Array<{ id: string }> }>;
    }>;
  };
}

export function choosingFirstOptions(checkout: Answer) {
  const method = checkout.fulfillment.methods[0]!;
  return {
    line_items: checkout.line_items.map((l) => ({ id: l.id, item: { id: l.item.id }, quantity: l.quantity })),
    fulfillment: {
      methods: [
        {
          id: method.id,
          type: 'shipping',
          destinations: method.destinations,
          selected_destination_id: method.selected_destination_id,
          groups: method.groups.map((g) => ({ id: g.id, selected_option_id: g.options[0]!.id })),
        },
      ],
    },
  };
}
