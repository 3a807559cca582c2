/**
 * The site's time zone, as WordPress keeps and uses it:
 * - `wp_timezone()` is the `timezone_string` option (an IANA name such as America/New_York) or,
 *   without one, the `gmt_offset` option (a fixed offset, written here as "-05:00");
 * - posts (orders without HPOS) store `post_date` / `post_modified` as the site's wall clock and
 *   `post_date_gmt` / `post_modified_gmt` in UTC, both "Y-m-d H:i:s" (wp_insert_post);
 * - the REST API writes `date_*` in the site's wall clock and `date_*_gmt` in UTC, neither with an
 *   offset (wc_rest_prepare_date_response, includes/wc-rest-functions.php);
 * - a date-time parameter must match rest_parse_date's RFC 3339 pattern (wp-includes/rest-api.php);
 * - a date query value that WP_Date_Query::build_mysql_datetime does not recognise as "Y-m-d H:i"
 *   or shorter (every RFC 3339 value, with its "T") goes through `date_create( $value,
 *   wp_timezone() )` and `setTimezone( wp_timezone() )` (wp-includes/class-wp-date-query.php):
 *   a value with "Z" or an offset is the instant it names, turned into the site's wall clock; a
 *   value without one is taken as the site's wall clock as it stands. Whatever the column, local
 *   or GMT, the value it is compared with is that site wall clock.
 * Intl carries the time zone data; only the inverse (a wall clock to the instant) is computed here.
 */

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(Z|z|[+-]\d{2}(?::?\d{2})?)?$/;

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(zone: string): Intl.DateTimeFormat {
  let found = formatters.get(zone);
  if (!found) {
    found = new Intl.DateTimeFormat('en-CA', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(zone, found);
  }
  return found;
}

/** The wall clock of `date` in `zone`, "YYYY-MM-DDTHH:MM:SS". */
export function wallClock(date: Date, zone: string): string {
  const parts = Object.fromEntries(
    formatter(zone)
      .formatToParts(date)
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}`;
}

/** rest_parse_date: the value is an RFC 3339 date-time (offset optional). */
export const isRestDate = (value: string): boolean => RFC3339.test(value);

/** What WP_Date_Query compares a column with for this RFC 3339 value: the site wall clock, "YYYY-MM-DD HH:MM:SS". */
export function dateQueryValue(value: string, zone: string): string {
  const match = RFC3339.exec(value);
  if (!match) throw new Error(`not an RFC 3339 date: ${value}`);
  const [, y, mo, d, h, mi, s, offset] = match;
  const wall = `${y}-${mo}-${d}T${h}:${mi}:${s}`;
  if (!offset) return wall.replace('T', ' ');
  const normalised = /^[zZ]$/.test(offset) ? 'Z' : offset.length === 3 ? `${offset}:00` : offset.replace(/^([+-]\d{2})(\d{2})$/, '$1:$2');
  return wallClock(new Date(`${wall}${normalised}`), zone).replace('T', ' ');
}
