/**
 * The tenant's A2A agent card (A2A 0.3 §5): where to send JSON-RPC, the protocol's A2A extension
 * with the business's capabilities, and one skill per operation the tenant offers.
 */
import type { AgentCard, AgentSkill } from '@a2a-js/sdk';
import type { OperationDefinition } from '../../capabilities/operation.js';
import { A2A_BINDING } from '../../protocol/capability-registry.js';
import { PROTOCOL_VERSION } from '../../protocol/version.js';
import type { Tenant } from '../../tenancy/tenant.js';

export const A2A_PATH = '/a2a';
/** The protocol's A2A extension (upstream `https://ucp.dev/a2a/extensions/shopping?v=…`, on this protocol's host). */
export const EXTENSION_URI = `${A2A_BINDING.extension}?v=${PROTOCOL_VERSION}`;
/** The A2A protocol version the SDK (0.3.x) and the upstream binding speak. */
const A2A_PROTOCOL_VERSION = '0.3.0';

/** Each operation is a skill: the agent takes `{action: <name>, …arguments}` in a DataPart. */
function skillOf(op: OperationDefinition): AgentSkill {
  const args = op.mcp.id ? ', "id": "…"' : '';
  return {
    id: op.name,
    name: op.title,
    description: `${op.description} Send a DataPart {"action": "${op.name}"${args}, …request members}.`,
    tags: [op.capability],
    inputModes: ['application/json'],
    outputModes: ['application/json'],
  };
}

export function agentCardOf(tenant: Tenant, operations: readonly OperationDefinition[]): AgentCard {
  const offered = operations.filter((op) => tenant.capabilities.has(op.capability));
  return {
    protocolVersion: A2A_PROTOCOL_VERSION,
    name: tenant.name,
    description:
      `${tenant.name}: catalog, cart, checkout and orders through the ${PROTOCOL_VERSION} commerce protocol. ` +
      'Send structured DataParts; free text gets the list of actions.',
    url: `${tenant.baseUrl}${A2A_PATH}`,
    preferredTransport: 'JSONRPC',
    version: PROTOCOL_VERSION,
    capabilities: {
      streaming: true,
      pushNotifications: false,
      stateTransitionHistory: false,
      extensions: [
        {
          uri: EXTENSION_URI,
          description: 'Business agent speaking the commerce protocol: resources under a2a.proto.<capability> DataParts.',
          required: false,
          params: { capabilities: [...tenant.capabilities.keys()].map((name) => ({ name, version: PROTOCOL_VERSION })) },
        },
      ],
    },
    defaultInputModes: ['application/json', 'text/plain'],
    defaultOutputModes: ['application/json', 'text/plain'],
    skills: offered.map(skillOf),
  };
}
