/**
 * `wc/v3` webhook resource as in woocommerce/woocommerce-rest-api-docs
 * source/includes/wp-api-v3/_webhooks.md ("Webhook properties"; `secret` is write-only) and the
 * topic hooks of plugins/woocommerce/includes/class-wc-webhook.php (get_topic_hooks).
 */
import type { SimWebhook } from '../model.js';
import type { WooStore } from '../store.js';
import { links, localDate, gmtDate } from './format.js';

const HOOKS: Record<string, string[]> = {
  'order.created': ['woocommerce_new_order'],
  'order.updated': ['woocommerce_update_order', 'woocommerce_order_refunded'],
  'order.deleted': ['wp_trash_post', 'woocommerce_trash_order'],
  'order.restored': ['untrashed_post'],
  'product.created': ['woocommerce_process_product_meta', 'woocommerce_new_product', 'woocommerce_new_product_variation'],
  'product.updated': ['woocommerce_process_product_meta', 'woocommerce_update_product', 'woocommerce_update_product_variation'],
  'product.deleted': ['wp_trash_post'],
};

export const WEBHOOK_TOPICS = Object.keys(HOOKS);

export function webhookShape(store: WooStore, webhook: SimWebhook) {
  const [resource, event] = webhook.topic.split('.');
  return {
    id: webhook.id,
    name: webhook.name,
    status: webhook.status,
    topic: webhook.topic,
    resource,
    event,
    hooks: HOOKS[webhook.topic] ?? [],
    delivery_url: webhook.deliveryUrl,
    date_created: localDate(store, webhook.dateCreated),
    date_created_gmt: gmtDate(webhook.dateCreated),
    date_modified: localDate(store, webhook.dateModified),
    date_modified_gmt: gmtDate(webhook.dateModified),
    _links: links(store.homeUrl(), `wc/v3/webhooks/${webhook.id}`, 'wc/v3/webhooks'),
  };
}
