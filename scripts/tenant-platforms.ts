/**
 * What an operator does by hand per platform, which no adapter can do for itself: how the store is
 * told to send its order webhooks to the gateway. `npm run tenant -- new` prints it as a next step
 * and `npm run tenant -- check` as the fix for a webhook that is not registered.
 */

/** The step for a tenant of `type` whose webhooks go to `url`; undefined when its store sends none (the demo store). */
export function webhookStep(type: string, id: string, url: string): string | undefined {
  switch (type) {
    case 'shopify':
      return `npm run shopify -- webhooks register --tenant ${id}`;
    case 'woocommerce':
      return `npm run woocommerce -- webhooks register --tenant ${id}`;
    case 'medusa':
      return `install the push subscriber on the Medusa server, delivering to ${url} (docs/adapters/medusa.md); else orders are polled`;
    case 'rest':
      return `have the store sign and send its order webhooks to ${url} (adapter.settings.webhooks), or poll orders (polling: true)`;
    default:
      return undefined;
  }
}
