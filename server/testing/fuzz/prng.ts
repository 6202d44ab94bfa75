/**
 * A small seeded pseudo-random generator (sfc32, seeded through splitmix32) so that every fuzz case
 * can be regenerated from the seed printed by the test. Not for anything secret.
 */

export interface Rng {
  readonly seed: number;
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max], both included. */
  int(min: number, max: number): number;
  chance(probability: number): boolean;
  pick<T>(items: readonly T[]): T;
  /** Up to `count` distinct items, in a random order. */
  sample<T>(items: readonly T[], count: number): T[];
  /** An independent generator, derived from this one's seed and a label (stable across runs). */
  fork(label: string): Rng;
}

function splitmix32(state: number): () => number {
  let s = state >>> 0;
  return () => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
}

/** FNV-1a: labels of forks become 32-bit numbers. */
export function hashLabel(label: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < label.length; i++) {
    hash ^= label.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}

export function createRng(seed: number): Rng {
  const init = splitmix32(seed);
  let a = init();
  let b = init();
  let c = init();
  let d = init();
  const next = () => {
    const t = (((a + b) >>> 0) + d) >>> 0;
    d = (d + 1) >>> 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) >>> 0;
    c = ((c << 21) | (c >>> 11)) >>> 0;
    c = (c + t) >>> 0;
    return t / 4294967296;
  };
  for (let i = 0; i < 12; i++) next();
  const rng: Rng = {
    seed,
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    chance: (probability) => next() < probability,
    pick: (items) => {
      if (items.length === 0) throw new Error('pick from an empty list');
      return items[Math.floor(next() * items.length)];
    },
    sample: (items, count) => {
      const copy = [...items];
      for (let i = copy.length - 1; i > 0; i--) {
        const j = Math.floor(next() * (i + 1));
        [copy[i], copy[j]] = [copy[j], copy[i]];
      }
      return copy.slice(0, count);
    },
    fork: (label) => createRng((seed ^ hashLabel(label)) >>> 0),
  };
  return rng;
}

/** The seed of this run: FUZZ_SEED when set (decimal or 0x hex), else a fixed default so CI is reproducible. */
export function seedFromEnv(env: NodeJS.ProcessEnv = process.env, fallback = 0x6d61696c): number {
  const raw = env.FUZZ_SEED?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0 || value > 0xffffffff) throw new Error(`FUZZ_SEED must be an integer in [0, 2^32): ${raw}`);
  return value;
}

/** FUZZ_BUDGET scales the random cases per operation (default 1; e.g. 10 for a long local run). */
export function budgetFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.FUZZ_BUDGET?.trim();
  if (!raw) return 1;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0 || value > 1000) throw new Error(`FUZZ_BUDGET must be a number in (0, 1000]: ${raw}`);
  return value;
}
