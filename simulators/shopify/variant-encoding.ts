/**
 * Shopify's `encodedVariantExistence` / `encodedVariantAvailability` (format "v1_"): a trie of
 * option value indices, one level per option, where the last level lists indices as ranges
 * ("0-2") separated by spaces, and deeper levels open with "i:" and close with ",". Example from
 * Shopify's documentation: "v1_0:0-2,1:2," = [0,0] [0,1] [0,2] [1,2].
 */
type Trie = Map<number, Trie>;

function ranges(indices: number[]): string {
  const parts: string[] = [];
  for (let i = 0; i < indices.length;) {
    let j = i;
    while (j + 1 < indices.length && indices[j + 1] === indices[j]! + 1) j++;
    parts.push(i === j ? `${indices[i]}` : `${indices[i]}-${indices[j]}`);
    i = j + 1;
  }
  return parts.join(' ');
}

function encodeLevel(trie: Trie): string {
  const keys = [...trie.keys()].sort((a, b) => a - b);
  if (keys.every((k) => trie.get(k)!.size === 0)) return ranges(keys);
  return keys.map((k) => `${k}:${encodeLevel(trie.get(k)!)},`).join('');
}

/** Encodes combinations of option value indices (each as long as the product has options). */
export function encodeVariants(combinations: number[][]): string {
  const root: Trie = new Map();
  for (const combination of combinations) {
    let node = root;
    for (const index of combination) {
      if (!node.has(index)) node.set(index, new Map());
      node = node.get(index)!;
    }
  }
  return `v1_${encodeLevel(root)}`;
}
