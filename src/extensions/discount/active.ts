/**
 * The discount extension's fields (`discounts` in and out, code rejections) exist only for a
 * caller whose negotiated capabilities include it; automatic discounts still show in totals.
 */
import type { Caller } from '../../operations/context.js';
import { CAPABILITY } from '../../protocol/capability-registry.js';

export const discountActive = (caller: Caller): boolean => caller.active.has(CAPABILITY.discount);
