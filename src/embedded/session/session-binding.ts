/**
 * Per-session negotiation of the embedded transport (spec part 2 §9): when the tenant turns it on,
 * every answer about a live cart or checkout (not completed, not canceled) carries the embedded
 * service binding in `proto.services`, whose `config.delegate` lists the delegations the business
 * allows for that session, and its `continue_url` becomes the session's page. Answers to the page
 * itself keep the store's continue_url: that is where the page hands the buyer off.
 */
import type { SessionKind } from '../settings.js';
import type { GatewaySecret } from '../../config/gateway-secret.js';
import { SHOPPING_SERVICE } from '../../protocol/capability-registry.js';
import { PROTOCOL_VERSION } from '../../protocol/version.js';
import type { Tenant } from '../../tenancy/tenant.js';
import type { Transport } from '../../capabilities/context.js';
import { issuePageToken } from './page-token.js';

export const EMBEDDED_PATH = '/embedded';

type ServiceBindings = Record<string, Array<Record<string, unknown>>>;

/** The session's embedded service binding (upstream service response_schema with embedded_config). */
function sessionBinding(delegate: readonly string[]): ServiceBindings {
  return { [SHOPPING_SERVICE]: [{ version: PROTOCOL_VERSION, transport: 'embedded', config: { delegate: [...delegate] } }] };
}

export interface BindingContext {
  tenant: Tenant;
  secret: GatewaySecret;
  now: number;
  transport: Transport;
  /** The caller's owner (security/auth/principal.ts `ownerOf`): the session's, whose page this is. */
  owner: string;
}

export interface BoundAnswer {
  body: Record<string, unknown>;
  services: ServiceBindings;
}

const ENDED = new Set(['completed', 'canceled']);

/** The page URL of a session, valid for the tenant's page lifetime. */
function pageUrl(ctx: BindingContext, kind: SessionKind, id: string): string {
  const settings = ctx.tenant.embedded!;
  const token = issuePageToken(ctx.secret, ctx.tenant.id, kind, { id, owner: ctx.owner, expiresAt: ctx.now + settings.pageTtlMs });
  return `${ctx.tenant.baseUrl}${EMBEDDED_PATH}/${kind}/${token}`;
}

/** The answer body with its page and binding; undefined when the transport is off or the session ended. */
export function bindSession(kind: SessionKind, body: Record<string, unknown>, ctx: BindingContext): BoundAnswer | undefined {
  const settings = ctx.tenant.embedded;
  if (!settings || typeof body.id !== 'string' || ENDED.has(body.status as string)) return undefined;
  const services = sessionBinding(settings.delegate[kind]);
  if (ctx.transport === 'embedded') return { body, services };
  return { body: { ...body, continue_url: pageUrl(ctx, kind, body.id) }, services };
}
