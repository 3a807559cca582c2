/**
 * MCP tool descriptions and argument checks, generated from the operation table:
 * arguments = {meta, id?, [payload]?} as the spec's MCP bindings say.
 */
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { McpMeta, ResourceId } from '../../../schemas/common.js';
import type { OperationDefinition } from '../../capabilities/operation.js';
import { ProtocolError } from '../../protocol/errors.js';
import { compile, type Validator } from '../../../schemas/validator.js';

/** What the server reads of `meta`; the profile is read apart (agentProfile), so a missing one is a discovery error. */
const CheckedMeta = Type.Omit(McpMeta, ['proto-agent']);

export interface ToolArguments {
  meta?: Static<typeof CheckedMeta>;
  id?: string;
  [payload: string]: unknown;
}

/** What a stock MCP client must be told: without `meta["proto-agent"]` its first call fails (-32001). */
const META_DESCRIPTION =
  'Required. meta["proto-agent"].profile is the caller\'s profile URL (the gateway fetches it to negotiate); ' +
  'meta["idempotency-key"] makes a state-changing call safe to retry. Stock clients may send the same keys in params._meta.';

export function toolArgumentsSchema(op: OperationDefinition): TSchema {
  const properties: Record<string, TSchema> = { meta: { ...McpMeta, description: META_DESCRIPTION } };
  if (op.mcp.id) properties.id = ResourceId;
  if (op.mcp.payload && op.input) properties[op.mcp.payload] = op.input;
  const required = ['meta', ...(op.mcp.id ? ['id'] : []), ...(op.mcp.payload && op.input ? [op.mcp.payload] : [])];
  return Type.Object(properties, { required, additionalProperties: true });
}

export interface Tool {
  name: string;
  title: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

export function describeTool(op: OperationDefinition): Tool {
  // JSON round trip drops TypeBox's symbol keys: what clients see is plain JSON Schema.
  const inputSchema = JSON.parse(JSON.stringify(toolArgumentsSchema(op))) as Record<string, unknown>;
  return { name: op.name, title: op.title, description: op.description, inputSchema };
}

/**
 * Checks only the MCP envelope of the arguments (meta and id); the payload is validated by the
 * pipeline with the same validator REST uses, so errors read the same on both transports.
 */
export function compileEnvelopeCheck(op: OperationDefinition): Validator<ToolArguments> {
  const properties: Record<string, TSchema> = { meta: Type.Optional(CheckedMeta) };
  if (op.mcp.id) properties.id = ResourceId;
  const required = [...(op.mcp.id ? ['id'] : []), ...(op.mcp.payload && op.input ? [op.mcp.payload] : [])];
  return compile<ToolArguments>(Type.Object(properties, { required, additionalProperties: true }));
}

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * The arguments with `meta` completed from the request's standard `params._meta`, where stock MCP
 * clients put request metadata: each of its protocol keys counts unless `arguments.meta` has it.
 */
export function withStandardMeta(args: unknown, standard: unknown): unknown {
  if (!isObject(args) || !isObject(standard) || (args.meta !== undefined && !isObject(args.meta))) return args;
  const known = Object.keys(McpMeta.properties).filter((key) => standard[key] !== undefined);
  return { ...args, meta: { ...Object.fromEntries(known.map((key) => [key, standard[key]])), ...args.meta } };
}

/** The caller's profile URL, `meta["proto-agent"].profile`; missing or unreadable is `invalid_profile_url` (-32001). */
export function agentProfile(meta: Record<string, unknown> | undefined): string {
  const agent = meta?.['proto-agent'];
  const profile = agent !== null && typeof agent === 'object' ? (agent as { profile?: unknown }).profile : undefined;
  if (typeof profile !== 'string' || profile.length === 0 || profile.length > 2048) {
    const why = 'meta["proto-agent"].profile is required: the caller\'s profile URL (at most 2048 characters)';
    throw new ProtocolError('invalid_profile_url', why);
  }
  return profile;
}
