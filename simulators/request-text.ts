/**
 * A member of a loosely typed request body read as text, as the platforms' own casts read a
 * scalar (a number's digits, `true`); an object or array reads as its JSON, never as
 * "[object Object]". Absent (undefined or null): `fallback`.
 */
export function text(value: unknown, fallback = ''): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (value === undefined || value === null) return fallback;
  return JSON.stringify(value);
}
