/** A tenant file for a gateway in front of a Shopify simulator (demo:shopify, bench:adapters). */
import { ALL_CAPABILITIES_YAML } from '../tenant-capabilities.js';

export interface SimulatedTenant {
  id: string;
  baseUrl: string;
  apiOrigin: string;
  shop: string;
}

/** Credentials are read from these environment variables (set from the simulator's own). */
const TENANT_CREDENTIAL_ENV = {
  storefront_token: 'SHOPIFY_STOREFRONT_TOKEN',
  client_id: 'SHOPIFY_CLIENT_ID',
  client_secret: 'SHOPIFY_CLIENT_SECRET',
};

export function simulatedTenantYaml(t: SimulatedTenant): string {
  return `# A Shopify tenant in front of the local Shopify simulator.
id: ${t.id}
name: Petal & Stem (Shopify)
base_url: ${t.baseUrl}
adapter:
  type: shopify
  finishing: handoff
  settings:
    shop: ${t.shop}
    api_origin: ${t.apiOrigin}
    markets:
      - { country: US, currency: USD }
      - { country: JP, currency: JPY }
      - { country: KW, currency: KWD }
  credentials:
${Object.entries(TENANT_CREDENTIAL_ENV)
  .map(([name, env]) => `    ${name}: { env: ${env} }`)
  .join('\n')}
${ALL_CAPABILITIES_YAML}checkout:
  required_buyer_fields: [email]
policies:
  allow_loopback_profiles: true
signing:
  ephemeral_key: true
  sign_responses: true
  verify_requests: optional
`;
}

/** The environment the tenant file's credential references read. */
export function simulatedTenantEnv(credentials: {
  storefrontToken: string;
  clientId: string;
  clientSecret: string;
}): Record<string, string> {
  return {
    [TENANT_CREDENTIAL_ENV.storefront_token]: credentials.storefrontToken,
    [TENANT_CREDENTIAL_ENV.client_id]: credentials.clientId,
    [TENANT_CREDENTIAL_ENV.client_secret]: credentials.clientSecret,
  };
}
