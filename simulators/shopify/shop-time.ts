/**
 * Times in the shop's time zone (`Shop.ianaTimezone`). The GraphQL APIs answer UTC (`DateTime`,
 * "2019-09-07T15:50:00Z"); the REST representation webhooks carry gives the shop's wall time
 * with its offset ("created_at": "2008-01-10T11:00:00-05:00",
 * https://shopify.dev/docs/api/admin-rest/latest/resources/order); search times without an
 * offset are read in the shop's zone (search-syntax.ts).
 */
import { ArgumentError } from './graph.js';

/** Milliseconds between UTC and the zone's wall clock at `utc`. */
function zoneOffset(utc: number, timeZone: string): number {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    })
      .formatToParts(new Date(utc))
      .map((p) => [p.type, p.value]),
  );
  const wall = Date.UTC(+parts.year!, +parts.month! - 1, +parts.day!, +parts.hour!, +parts.minute!, +parts.second!);
  return wall - Math.floor(utc / 1000) * 1000;
}

/** A search time value as a UTC range [start, end] in ms: `now`, an exact instant, or wall time / a day in the shop's zone. */
export function timeRange(value: string, timeZone: string, now: number): [number, number] {
  if (value === 'now') return [now, now];
  if (/(Z|[+-]\d\d:?\d\d)$/i.test(value)) {
    const at = Date.parse(value);
    if (Number.isNaN(at)) throw new ArgumentError(`invalid time ${value}`);
    return [at, at];
  }
  const m = /^(\d{4})-(\d\d)-(\d\d)(?:[T ](\d\d):(\d\d)(?::(\d\d))?)?$/.exec(value);
  if (!m) throw new ArgumentError(`invalid time ${value}`);
  const wall = Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +(m[4] ?? 0), +(m[5] ?? 0), +(m[6] ?? 0));
  const start = wall - zoneOffset(wall - zoneOffset(wall, timeZone), timeZone);
  return [start, m[4] === undefined ? start + 86_400_000 - 1 : start];
}

/** An instant as the shop's wall time with its UTC offset, e.g. 2026-03-09T23:30:00-05:00. */
export function shopTime(iso: string, timeZone: string): string {
  const utc = Date.parse(iso);
  const offset = zoneOffset(utc, timeZone);
  const wall = new Date(Math.floor(utc / 1000) * 1000 + offset).toISOString().slice(0, 19);
  const minutes = Math.abs(offset) / 60_000;
  const sign = offset < 0 ? '-' : '+';
  return `${wall}${sign}${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}
