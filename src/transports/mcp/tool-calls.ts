/**
 * The MCP tools of the operation table and their calls: a tenant's tool list (made once per
 * tenant), and a tool call checked for its envelope, turned into the operation call and run by
 * the pipeline, answered as the CallToolResult text (one that runs no operation is metered here).
 */
import type { FastifyRequest } from 'fastify';
import type { OperationDefinition } from '../../capabilities/operation.js';
import { operationCall, type CallFacts } from '../../pipeline/operation-call.js';
import type { Pipeline } from '../../pipeline/pipeline.js';
import { bounded, ProtocolError } from '../../protocol/errors.js';
import type { Tenant } from '../../tenancy/tenant.js';
import type { Validator } from '../../../schemas/validator.js';
import { withoutBodyId } from '../body-id.js';
import { meterMessage } from '../rate-limiter.js';
import { agentProfile, compileEnvelopeCheck, describeTool, withStandardMeta, type Tool, type ToolArguments } from './tools.js';

/** Text of a business outcome that failed is its messages' text (spec part 2 §4.1). */
function contentText(body: string, outcome: 'success' | 'error'): string {
  if (outcome === 'success') return body;
  const messages = (JSON.parse(body) as { messages?: Array<{ content: string }> }).messages ?? [];
  return messages.map((m) => m.content).join('\n') || body;
}

/**
 * The CallToolResult as JSON text, keys in the order the SDK's result schema writes them; the
 * answer's body goes in as structuredContent unparsed (it is the JSON object REST sends).
 */
function toolResultText({ body, outcome }: { body: string; outcome: 'success' | 'error' }): string {
  return `{"content":[{"type":"text","text":${JSON.stringify(contentText(body, outcome))}}],"structuredContent":${body}}`;
}

interface ToolList {
  result: { tools: Tool[] };
  text: string;
}

/** A tools/call as the request carries it: `params.name`, `params.arguments`, `params._meta`. */
export interface ToolCallParams {
  name: string;
  arguments?: unknown;
  _meta?: unknown;
}

export interface ToolCalls {
  /** The tools a tenant offers, as the tools/list result and its JSON text. */
  list(tenant: Tenant): ToolList;
  /** Runs one tool call; its CallToolResult as JSON text. */
  call(req: FastifyRequest, tenant: Tenant, params: ToolCallParams): Promise<string>;
}

export function toolCalls(operations: readonly OperationDefinition[], pipeline: Pipeline): ToolCalls {
  const byName = new Map(operations.map((op) => [op.name, op]));
  const envelopeChecks = new Map<string, Validator<ToolArguments>>(operations.map((op) => [op.name, compileEnvelopeCheck(op)]));
  // Once per tenant: a reloaded configuration is a new Tenant, so its tools are listed afresh.
  const toolLists = new WeakMap<Tenant, ToolList>();

  const list = (tenant: Tenant): ToolList => {
    let found = toolLists.get(tenant);
    if (!found) {
      const result = { tools: operations.filter((op) => tenant.capabilities.has(op.capability)).map(describeTool) };
      found = { result, text: JSON.stringify(result) };
      toolLists.set(tenant, found);
    }
    return found;
  };

  /** The operation and the call a tools/call makes, or the protocol error that it makes none. */
  function prepare(req: FastifyRequest, tenant: Tenant, { name, arguments: args, _meta: standardMeta }: ToolCallParams) {
    const op = byName.get(name);
    if (!op || !tenant.capabilities.has(op.capability))
      throw new ProtocolError('unknown_tool', `unknown tool ${bounded(String(name), 100)}`);
    req.operation = op.name;
    const checked = envelopeChecks.get(op.name)!(withStandardMeta(args ?? {}, standardMeta));
    if (!checked.ok) throw new ProtocolError('invalid_request', `arguments${checked.message.slice(1)}`);
    const { meta = {}, id } = checked.value;
    const profileUrl = agentProfile(meta);
    const sent = op.mcp.payload ? checked.value[op.mcp.payload] : undefined;
    // A cart payload never carries its own id (spec §4.2); a checkout one may (deprecated, as on REST);
    // a catalog payload names products by id.
    if (op.mcp.payload === 'cart' && sent !== null && typeof sent === 'object' && 'id' in sent) {
      throw new ProtocolError('invalid_request', 'arguments.cart.id is not allowed: the id goes in arguments.id');
    }
    const payload = op.mcp.payload === 'checkout' ? withoutBodyId(sent, id, 'arguments.id') : sent;
    const requestId = meta['request-id'] ?? req.id;
    const facts: CallFacts = { transport: 'mcp', requestId, profileUrl, id, payload, idempotencyKey: meta['idempotency-key'] };
    return { op, facts };
  }

  async function call(req: FastifyRequest, tenant: Tenant, params: ToolCallParams) {
    let prepared;
    try {
      prepared = prepare(req, tenant, params);
    } catch (error) {
      // No operation runs, so the pipeline counts nothing: the message is metered as any other.
      await meterMessage(req, 'tools/call');
      throw error;
    }
    const response = await pipeline.execute(prepared.op, operationCall(req, tenant, prepared.facts));
    return toolResultText(response);
  }

  return { list, call };
}
