/** Integer money arithmetic: percentages, rates and proportional splits that add up exactly. */

/** BigInt(2), not `2n`: the build targets ES2017, which has no BigInt literals (docs/decisions.md). */
const TWO = BigInt(2);

/** round_half_up(value * numerator / denominator) for non-negative integers, exact (BigInt). */
export function mulDivRoundHalfUp(value: number, numerator: number, denominator: number): number {
  const product = BigInt(value) * BigInt(numerator);
  const d = BigInt(denominator);
  return Number((product * TWO + d) / (TWO * d));
}

/**
 * Splits `amount` over `weights` in proportion, each share rounded down and the remainder given
 * one unit at a time to the largest fractional parts (ties to the earlier weight). The shares
 * always sum to `amount` exactly and never exceed their weight when amount <= sum(weights).
 */
export function allocate(amount: number, weights: number[]): number[] {
  const total = weights.reduce((s, w) => s + w, 0);
  if (total === 0) return weights.map(() => 0);
  const big = weights.map((w) => BigInt(amount) * BigInt(w));
  const shares = big.map((p) => Number(p / BigInt(total)));
  const remainders = big.map((p, i) => ({ i, r: p % BigInt(total) }));
  let left = amount - shares.reduce((s, x) => s + x, 0);
  remainders.sort((a, b) => (a.r === b.r ? a.i - b.i : a.r > b.r ? -1 : 1));
  for (const { i } of remainders) {
    if (left === 0) break;
    shares[i]! += 1;
    left -= 1;
  }
  return shares;
}
