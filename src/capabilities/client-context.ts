/**
 * The request's client facts (IP, language) added to an adapter call, outside what the gateway
 * fingerprints: a quote or page is not re-asked because the buyer's address changed.
 */
import type { RequestContext } from '../../adapters/contract.js';
import type { OperationContext } from '../operations/context.js';

export function withClient<T extends object>(ctx: Pick<OperationContext, 'client'>, request: T): T & { context?: RequestContext } {
  return ctx.client && Object.keys(ctx.client).length > 0 ? { ...request, context: ctx.client } : request;
}
