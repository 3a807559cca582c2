/**
 * Every extension the gateway serves, in the order their members and messages appear in answers.
 * An extension adds itself here; cart and checkout run the steps of those the caller negotiated
 * (steps.ts), and the resource schemas compose their members (schemas/cart.ts, checkout.ts).
 */
import { discountExtension } from './discount/extension.js';
import type { Extension } from './extension.js';
import { fulfillmentExtension } from './fulfillment/extension.js';

export const extensions: readonly Extension[] = [discountExtension, fulfillmentExtension];
