/**
 * `_fields`: WordPress trims a successful REST answer to the fields a request names, nested with
 * dots (`rest_filter_response_fields`, hooked on `rest_post_dispatch`, wp-includes/rest-api.php).
 * WP_REST_Server applies that filter to every answer it serves, and serve_batch_request_v1 to each
 * sub-request's answer, with the sub-request's own query (parsed from its path). Error answers
 * (status 400 and up) are left whole.
 */
type Tree = { [key: string]: Tree | true };

/** The accepted field hierarchy; a field whose parent is already accepted whole adds nothing. */
function accepted(fields: string[]): Tree {
  const tree: Tree = {};
  for (const field of fields) {
    const parts = field.split('.');
    let ref = tree;
    let covered = false;
    while (parts.length > 1) {
      const next = parts.shift()!;
      if (ref[next] === true) {
        covered = true;
        break;
      }
      ref = (ref[next] ??= {}) as Tree;
    }
    if (!covered) ref[parts[0]!] = true;
  }
  return tree;
}

/**
 * _rest_array_intersect_key_recursive: the keys `tree` names, nested parts trimmed the same way. A
 * list under a nested field is kept whole (PHP would intersect its indexes; nothing here asks that).
 */
function intersect(value: unknown, tree: Tree): unknown {
  if (!value || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    const wanted = tree[key];
    if (wanted === undefined) continue;
    out[key] = wanted === true || !inner || typeof inner !== 'object' || Array.isArray(inner) ? inner : intersect(inner, wanted);
  }
  return out;
}

/** `body` as WordPress serves it for `status` and the request's `_fields` (wp_parse_list: commas or spaces). */
export function filterResponseFields(body: unknown, status: number, fields: string | undefined): unknown {
  if (fields === undefined || status >= 400) return body;
  const list = fields
    .split(/[\s,]+/)
    .map((f) => f.trim())
    .filter(Boolean);
  if (!list.length) return body;
  const tree = accepted(list);
  return Array.isArray(body) ? body.map((item) => intersect(item, tree)) : intersect(body, tree);
}
