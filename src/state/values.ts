/**
 * What both stores check and how they copy values, so the memory store and Redis accept and
 * refuse the same things: values travel as JSON text, TTLs are whole positive milliseconds.
 */

export function encodeJson(value: unknown): string {
  const text = JSON.stringify(value);
  if (text === undefined) throw new TypeError(`a state store value must be JSON-serializable, got ${typeof value}`);
  return text;
}

/** What setText takes: a string (the type system says so; a caller outside it may not). */
export function checkText(text: string): string {
  if (typeof text !== 'string') throw new TypeError(`setText takes a string, got ${typeof text}`);
  return text;
}

export function decodeJson<T>(text: string): T {
  return JSON.parse(text) as T;
}

/** A TTL or lease, rounded up so it never ends before the caller asked. */
export function durationMillis(ms: number, name = 'ttlMs'): number {
  if (!Number.isFinite(ms) || ms <= 0) throw new RangeError(`${name} must be a positive number of milliseconds, got ${ms}`);
  return Math.ceil(ms);
}

export function checkVersion(expectedVersion: number): void {
  if (!Number.isSafeInteger(expectedVersion) || expectedVersion < 0) {
    throw new RangeError(`expectedVersion must be a non-negative integer, got ${expectedVersion}`);
  }
}

export function checkMax(max: number): void {
  if (!Number.isSafeInteger(max) || max < 1) throw new RangeError(`max must be a positive integer, got ${max}`);
}

export function checkTime(at: number, name: string): void {
  if (!Number.isFinite(at)) throw new RangeError(`${name} must be a time in epoch milliseconds, got ${at}`);
}
