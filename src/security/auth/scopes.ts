/** Which operations need an authenticated caller and which buyer scopes (spec part 2 §5). */
import { CAPABILITY, type CapabilityName } from '../../protocol/capability-registry.js';

export const ORDER_READ = 'dev.proto.shopping.order:read';
export const ORDER_MANAGE = 'dev.proto.shopping.order:manage';

/** "Get Order: the business MUST authenticate before answering." */
export const ALWAYS_AUTHENTICATED: ReadonlySet<CapabilityName> = new Set([CAPABILITY.order]);

/** The scope a buyer token needs for a capability's operations; capabilities not listed need none. */
export const BUYER_SCOPES: Partial<Record<CapabilityName, string>> = { [CAPABILITY.order]: ORDER_READ };
