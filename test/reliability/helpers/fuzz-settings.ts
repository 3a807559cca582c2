/**
 * How long the fuzz suites run: a fixed seed and a few runs per property in `npm test`;
 * `npm run fuzz` sets FUZZ_RUNS high and FUZZ_SEED=random (the seed is printed so any failure
 * can be replayed with FUZZ_SEED=<seed>).
 */
import { randomInt } from 'node:crypto';

const FIXED_SEED = 20_260_408;

function seedFromEnv(): number {
  const raw = process.env.FUZZ_SEED;
  if (raw === undefined || raw === '') return FIXED_SEED;
  if (raw === 'random') return randomInt(2 ** 31 - 1);
  const seed = Number(raw);
  if (!Number.isInteger(seed)) throw new Error(`FUZZ_SEED must be an integer or "random", not ${raw}`);
  return seed;
}

/** A run whose request has not been answered by then has hung: it fails with its counterexample (not a speed check). */
const HANG_MS = 10_000;

export const fuzz = {
  seed: seedFromEnv(),
  /**
   * fast-check parameters of one property: the seed, the runs (scaled), the hang limit per run, and
   * a stop before Vitest's limit, so a hang is reported with its counterexample even mid-shrink.
   */
  params(scale = 1) {
    return {
      seed: this.seed,
      numRuns: this.runs(scale),
      timeout: HANG_MS,
      interruptAfterTimeLimit: this.testTimeout(scale) - HANG_MS / 2,
      markInterruptAsFailure: true,
    };
  },
  /** Vitest's limit for a whole property, so long runs are not cut short (a hung run is reported by fast-check first). */
  testTimeout(scale = 1): number {
    return 2 * HANG_MS + this.runs(scale) * 200;
  },
  /** Runs per property; `scale` shrinks it for the costlier properties. */
  runs(scale = 1): number {
    const base = Number(process.env.FUZZ_RUNS ?? 25);
    return Math.max(1, Math.round(base * scale));
  },
  long: process.env.FUZZ_RUNS !== undefined,
};
