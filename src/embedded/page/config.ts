/**
 * What the page knows before it speaks: the gateway's ep-config (kind, version, page RPC, allowed
 * host origins and delegations) and the host's query parameters (spec part 2 §9). A missing or
 * different `ep_version` is not a session: the page takes the error path instead.
 */
export type Kind = 'cart' | 'checkout';
export type ColorScheme = 'light' | 'dark';

export interface PageConfig {
  kind: Kind;
  version: string;
  rpc: string;
  hostOrigins: string[];
  delegate: string[];
  storefrontUrl: string;
  businessName: string;
  /** The credential the business requires for this session, which the page asks its host for. */
  auth?: { type: string };
  /** The fields the store requires: marked, and checked before an edit is sent. */
  required: { buyer: string[]; address: string[] };
}

export interface Session {
  config: PageConfig;
  /** The negotiated version, echoed in every answer of the session. */
  version: string;
  /** What the page accepts: asked by the host ∩ allowed by the business ∩ implemented here, in the business's order. */
  delegate: string[];
  auth?: string;
  colorScheme?: ColorScheme;
  /** Method prefix: `ec` for checkout, `ep.cart` for cart. */
  prefix: 'ec' | 'ep.cart';
}

/** Delegations this page carries out (upstream ECP names); others are never accepted, even when allowed. */
const IMPLEMENTED = new Set(['payment.credential', 'fulfillment.address_change']);

export type SessionResult = { ok: true; session: Session } | { ok: false; config: PageConfig; problem: string };

export function readConfig(doc: Document): PageConfig {
  const text = doc.getElementById('ep-config')?.textContent;
  if (!text) throw new Error('the page has no ep-config');
  return JSON.parse(text) as PageConfig;
}

/** Query parameters of the session; checkout also takes upstream's `ec_` names (decisions.md). */
export function readSession(config: PageConfig, search: string): SessionResult {
  const query = new URLSearchParams(search);
  const param = (name: string) => query.get(`ep_${name}`) ?? (config.kind === 'checkout' ? query.get(`ec_${name}`) : null);
  const version = param('version');
  if (version === null || version === '')
    return { ok: false, config, problem: 'The host did not say which protocol version it speaks (ep_version).' };
  if (version !== config.version) {
    return { ok: false, config, problem: `The host asked for protocol version ${version}; this ${config.kind} speaks ${config.version}.` };
  }
  const asked = query.get(`ep_${config.kind}_delegate`) ?? (config.kind === 'checkout' ? query.get('ec_delegate') : null);
  const wanted = new Set(splitList(asked));
  const scheme = param('color_scheme');
  const auth = param('auth');
  return {
    ok: true,
    session: {
      config,
      version,
      delegate: config.delegate.filter((name) => wanted.has(name) && IMPLEMENTED.has(name)),
      ...(auth && { auth }),
      ...((scheme === 'light' || scheme === 'dark') && { colorScheme: scheme }),
      prefix: config.kind === 'checkout' ? 'ec' : 'ep.cart',
    },
  };
}

function splitList(value: string | null): string[] {
  return (value ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
}
