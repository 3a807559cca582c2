/**
 * Ids that stay stable across updates of a list the platform resends whole (line items, fulfillment
 * methods): an entry keeps the id it names when that id exists (each id once); an entry without
 * one, or naming one that does not exist, takes the id of an unclaimed existing entry with the
 * same key (a line's item, a method's type); anything else gets a fresh id.
 */

/** Something that has an id and a key it can be recognized by without one (a line's item). */
export interface Keyed {
  id: string;
  key: string;
}

export interface Requested {
  id?: string | undefined;
  key: string;
}

/**
 * One id per requested entry, in request order. `fresh` makes a new id for a key; it is told
 * every id already in use, so it never repeats one.
 */
export function assignIds(
  requested: readonly Requested[],
  existing: readonly Keyed[],
  fresh: (key: string, used: ReadonlySet<string>) => string,
): string[] {
  const known = new Set(existing.map((entry) => entry.id));
  const claimed = new Set<string>();
  // Named ids first, so an entry matched by key never takes an id another entry (even a later one) names.
  const named = requested.map((entry) => {
    if (entry.id === undefined || !known.has(entry.id) || claimed.has(entry.id)) return undefined;
    claimed.add(entry.id);
    return entry.id;
  });
  return named.map((id, i) => {
    if (id !== undefined) return id;
    const key = requested[i]!.key;
    // Every claimed id is known or fresh: with the fresh ones added, `known` is every id in use.
    const assigned = existing.find((entry) => entry.key === key && !claimed.has(entry.id))?.id ?? fresh(key, known);
    claimed.add(assigned);
    known.add(assigned);
    return assigned;
  });
}
