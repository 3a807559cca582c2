/**
 * The tenant's A2A agent card (A2A 1.0 §8, §4.4.1): one JSON-RPC interface at /a2a declared at
 * 1.0 and at 0.3 (both versions are served there, told apart by `A2A-Version`), the protocol's A2A
 * extension with the business's capabilities, and one skill per operation the tenant offers.
 * A 1.0 client reads `supportedInterfaces`; a 0.3 client, which sends no `A2A-Version`, gets the
 * same card with the 0.3 members (`url`, `preferredTransport`, `protocolVersion`) beside them, the
 * hybrid card the SDK's own compat layer serves.
 */
import { createHash } from 'node:crypto';
import { AgentCard, type AgentSkill } from '@a2a-js/sdk';
import { duplicateInterfacesForLegacy } from '@a2a-js/sdk/compat/v0_3';
import type { OperationDefinition } from '../../capabilities/operation.js';
import { A2A_BINDING } from '../../protocol/capability-registry.js';
import { PROTOCOL_VERSION } from '../../protocol/version.js';
import type { Tenant } from '../../tenancy/tenant.js';
import { A2A_V03, A2A_V1 } from './wire-version.js';

export const A2A_PATH = '/a2a';
/** The protocol's A2A extension (upstream `https://ucp.dev/a2a/extensions/shopping?v=…`, on this protocol's host). */
export const EXTENSION_URI = `${A2A_BINDING.extension}?v=${PROTOCOL_VERSION}`;
/** What a 0.3 card says it speaks (the 0.3 schema's own example and default). */
const LEGACY_CARD_VERSION = '0.3.0';

/** Each operation is a skill: the agent takes `{action: <name>, …arguments}` in a DataPart. */
function skillOf(op: OperationDefinition): AgentSkill {
  const args = op.mcp.id ? ', "id": "…"' : '';
  return {
    id: op.name,
    name: op.title,
    description: `${op.description} Send a DataPart {"action": "${op.name}"${args}, …request members}.`,
    tags: [op.capability],
    examples: [],
    inputModes: ['application/json'],
    outputModes: ['application/json'],
    securityRequirements: [],
  };
}

export function agentCardOf(tenant: Tenant, operations: readonly OperationDefinition[]): AgentCard {
  const offered = operations.filter((op) => tenant.capabilities.has(op.capability));
  const endpoint = { url: `${tenant.baseUrl}${A2A_PATH}`, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: A2A_V1 };
  return {
    name: tenant.name,
    description:
      `${tenant.name}: catalog, cart, checkout and orders through the ${PROTOCOL_VERSION} commerce protocol. ` +
      'Send structured DataParts; free text gets the list of actions.',
    supportedInterfaces: duplicateInterfacesForLegacy([endpoint], ['JSONRPC']),
    provider: undefined,
    version: PROTOCOL_VERSION,
    capabilities: {
      streaming: true,
      pushNotifications: false,
      extensions: [
        {
          uri: EXTENSION_URI,
          description: 'Business agent speaking the commerce protocol: resources under a2a.proto.<capability> DataParts.',
          required: false,
          params: { capabilities: [...tenant.capabilities.keys()].map((name) => ({ name, version: PROTOCOL_VERSION })) },
        },
      ],
    },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ['application/json', 'text/plain'],
    defaultOutputModes: ['application/json', 'text/plain'],
    skills: offered.map(skillOf),
    signatures: [],
  };
}

/** The card as one version reads it, serialized once: its body and the ETag clients revalidate with (A2A 1.0 §8.6). */
export interface CardView {
  body: string;
  etag: string;
}

/** The card as the asked version reads it: 1.0 JSON, or for 0.x the hybrid card 0.3 and 1.0 clients both read. */
export function cardView(card: AgentCard, version: string): CardView {
  let json = AgentCard.toJSON(card) as Record<string, unknown>;
  if (version.startsWith('0.')) {
    const legacy = card.supportedInterfaces.find((i) => i.protocolVersion === A2A_V03)!;
    json = { ...json, url: legacy.url, preferredTransport: legacy.protocolBinding, protocolVersion: LEGACY_CARD_VERSION };
  }
  const body = JSON.stringify(json);
  return { body, etag: `W/"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"` };
}
