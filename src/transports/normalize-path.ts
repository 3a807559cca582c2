/**
 * The one normalisation of a request path, done before routing (RFC 3986 §6.2.2): percent-encoded
 * unreserved characters decoded (`%2e` is `.`, `%6d` is `m`), the remaining escapes in upper case,
 * then dot segments removed (§5.2.4). The router and the store behind the front door then see the
 * same path: `/%2e/mcp` is the gateway's /mcp, never the store's. A path whose `..` would climb
 * above the root is left as received, so it is refused (400) rather than clamped. The query is
 * left alone. Backslashes are escaped: WHATWG URL parsing (the store's request) reads them as `/`.
 */
const ESCAPE = /%([0-9a-fA-F]{2})/g;
const UNRESERVED = /^[A-Za-z0-9\-._~]$/;

function decodeUnreserved(path: string): string {
  return path.replace(ESCAPE, (_escape, hex: string) => {
    const char = String.fromCharCode(parseInt(hex, 16));
    return UNRESERVED.test(char) ? char : `%${hex.toUpperCase()}`;
  });
}

/** RFC 3986 §5.2.4 on an absolute path; undefined when a `..` would climb above the root. */
function removeDotSegments(path: string): string | undefined {
  const segments = path.split('/').slice(1);
  const out: string[] = [];
  for (const [i, segment] of segments.entries()) {
    const last = i === segments.length - 1;
    if (segment === '.' || segment === '..') {
      if (segment === '..' && out.pop() === undefined) return undefined;
      if (last) out.push(''); // `/a/b/.` is `/a/b/`
      continue;
    }
    out.push(segment);
  }
  return `/${out.join('/')}`;
}

/** What normalisation would change: an escape, a backslash, or a `.` or `..` segment. */
const NOT_NORMAL = /[%\\]|\/\.\.?(?:\/|$)/;

export function normalizeRequestUrl(url: string): string {
  const queryAt = url.indexOf('?');
  const path = queryAt === -1 ? url : url.slice(0, queryAt);
  if (!path.startsWith('/')) return url; // `*` (OPTIONS) or an absolute form: Fastify answers those
  if (!NOT_NORMAL.test(path)) return url; // most paths: nothing to split, decode or rejoin
  const normalized = removeDotSegments(decodeUnreserved(path).replaceAll('\\', '%5C'));
  if (normalized === undefined) return url;
  return queryAt === -1 ? normalized : normalized + url.slice(queryAt);
}
