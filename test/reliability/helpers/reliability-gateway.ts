/**
 * The gateway the reliability suites attack: the shared demo-store gateway (test/helpers/demo-gateway.ts)
 * with any number of agents, each its own profile URL on one loopback platform, all signing their
 * requests with one key their profiles publish. The tenant takes signatures from any profile
 * (`auth.signatures.any_profile`, the documented opt-in), so each is an authenticated platform
 * (orders need one) without a list of agents made up front.
 */
import type { InjectOptions } from 'fastify';
import type { Adapter } from '../../../adapters/contract.js';
import { generatePrivateJwk, signingKeyFromJwk } from '../../../src/security/keyring.js';
import { signRequest } from '../../../src/security/sign.js';
import { demoGateway, type DemoGateway, type DemoGatewayOptions } from '../../helpers/demo-gateway.js';
import { platformProfile } from '../../helpers/platform.js';

export { NOW } from '../../helpers/demo-gateway.js';

export interface ReliabilityGateway extends DemoGateway {
  /** The adapter the tenant calls (after `wrapAdapter`, before the gateway's resilient wrapper). */
  backend: Adapter;
  /**
   * Profile URL of agent `name`, served on the platform (every capability, the agents' signing
   * key, and `webhookUrl` as the order capability's webhook_url when given).
   */
  agent(name: string, options?: { webhookUrl?: string }): string;
  /** Signs a request as the agents do (RFC 9421). */
  sign(request: InjectOptions): InjectOptions;
}

/** One per test process, so every replica of a test finds it in every agent's profile. */
const agentKey = generatePrivateJwk('ES256').then((jwk) => signingKeyFromJwk(jwk, "the agents' key"));

/** The tenant's address (the shared test tenant's base_url): what signatures cover as @authority. */
const ORIGIN = 'https://shop.example';

/** Where agent `name`'s profile is served on the platform. */
export const agentPath = (name: string) => `/agents/${encodeURIComponent(name)}/.well-known/proto`;

export async function reliabilityGateway(options: DemoGatewayOptions = {}): Promise<ReliabilityGateway> {
  let backend!: Adapter;
  const gw = await demoGateway({
    ...options,
    tenant: { ...options.tenant, auth: { signatures: { any_profile: true }, ...options.tenant?.auth } },
    wrapAdapter: (adapter) => (backend = options.wrapAdapter ? options.wrapAdapter(adapter) : adapter),
  });
  const key = await agentKey;
  const served = new Set<string>();
  return Object.assign(gw, {
    backend,
    agent(name: string, { webhookUrl }: { webhookUrl?: string } = {}) {
      const path = agentPath(name);
      if (!served.has(path)) {
        const profile = platformProfile();
        if (webhookUrl)
          profile.proto.capabilities['dev.proto.shopping.order'] = [
            { version: '2026-04-08', config: { webhook_url: webhookUrl } } as { version: string },
          ];
        gw.platform.serve(path, { ...profile, keys: [key.publicJwk] });
        served.add(path);
      }
      return gw.platform.url(path);
    },
    sign(request: InjectOptions): InjectOptions {
      const headers = Object.fromEntries(Object.entries(request.headers ?? {}).map(([name, value]) => [name, String(value)]));
      const body = typeof request.payload === 'string' || Buffer.isBuffer(request.payload) ? request.payload : undefined;
      const signed = signRequest(
        {
          method: request.method ?? 'GET',
          url: `${ORIGIN}${typeof request.url === 'string' ? request.url : ''}`,
          headers,
          ...(body !== undefined && { body }),
        },
        { key, now: () => gw.clock.now },
      );
      return { ...request, headers: { ...signed, host: new URL(ORIGIN).host } };
    },
  });
}

/** Ids and tokens the demo store and its sandbox payments know, so generated requests reach past "not found" often. */
export const DEMO_WORDS = [
  'bouquet_roses',
  'pot_ceramic',
  'bouquet_sunflowers',
  'bouquet_tulips',
  'orchid_white',
  'florist_tee',
  'florist_tee_m_green',
  'florist_tee_l_white',
  'TEE-S-GRN',
  'ebook_flower_care',
  'vase_glass',
  'bouquet_peonies',
  'wreath_holiday',
  '10OFF',
  'WELCOME20',
  'FIXED500',
  'USD',
  'EUR',
  'JPY',
  'US',
  'CA',
  'IL',
  'shipping',
  'pickup',
  'loop',
  'Size',
  'Color',
  'M',
  'Green',
  'sandbox',
  'card',
  'instr_1',
  'PAYMENT_GATEWAY',
  'success_token',
  'fail_token',
];
