/**
 * `$lineChanges(storeLines, lines)` in the mappings of a store whose cart lives on its side: the
 * calls that bring the store's cart to the requested lines, as three lists a `for_each` step
 * each sends. Lines are matched by variant (stores merge lines of one variant): `add` what the
 * cart lacks, `change` a quantity that differs, `remove` what is no longer asked for.
 *
 *   storeLines: [{id, variantId, quantity}]   (the store's cart, mapped by the tenant)
 *   lines:      the QuoteRequest's lines       ({lineId, variantId, quantity})
 *   gives       {add: [{variantId, quantity, lineIds}], change: [{id, variantId, quantity, lineIds}], remove: [{id, variantId}]}
 */
interface StoreLine {
  id: string;
  variantId: string;
  quantity: number;
}

interface Wanted {
  variantId: string;
  quantity: number;
  lineIds: string[];
}

const asArray = (value: unknown): unknown[] => (value === undefined || value === null ? [] : Array.isArray(value) ? value : [value]);

function storeLine(value: unknown): StoreLine {
  const line = (value ?? {}) as Record<string, unknown>;
  if (
    typeof line.variantId !== 'string' ||
    (typeof line.id !== 'string' && typeof line.id !== 'number') ||
    typeof line.quantity !== 'number'
  )
    throw new Error('$lineChanges: each store line needs id, variantId and quantity');
  return { id: String(line.id), variantId: line.variantId, quantity: line.quantity };
}

export function lineChanges(storeLines: unknown, lines: unknown) {
  const wanted = new Map<string, Wanted>();
  for (const value of asArray(lines)) {
    const line = value as { lineId: string; variantId: string; quantity: number };
    const entry = wanted.get(line.variantId) ?? { variantId: line.variantId, quantity: 0, lineIds: [] };
    entry.quantity += line.quantity;
    entry.lineIds.push(line.lineId);
    wanted.set(line.variantId, entry);
  }
  const have = new Map(
    asArray(storeLines)
      .map((l) => storeLine(l))
      .map((l) => [l.variantId, l]),
  );
  const add: Wanted[] = [];
  const change: Array<StoreLine & { lineIds: string[] }> = [];
  const remove: Array<Pick<StoreLine, 'id' | 'variantId'>> = [];
  for (const entry of wanted.values()) {
    const current = have.get(entry.variantId);
    if (!current) add.push(entry);
    else if (entry.quantity < 1) remove.push({ id: current.id, variantId: current.variantId });
    else if (current.quantity !== entry.quantity) change.push({ ...current, quantity: entry.quantity, lineIds: entry.lineIds });
  }
  for (const line of have.values()) if (!wanted.has(line.variantId)) remove.push({ id: line.id, variantId: line.variantId });
  return { add, change, remove };
}
