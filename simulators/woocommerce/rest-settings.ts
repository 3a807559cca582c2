/**
 * `GET wc/v3/settings/{group_id}/{id}`: one setting option, as WC_REST_Setting_Options_V2_Controller
 * answers it (includes/rest-api/Controllers/Version2/class-wc-rest-setting-options-v2-controller.php
 * get_item, get_setting, filter_setting: id, label, description, type, default, tip, options,
 * value; manager permission to read). Only the tax options the gateway reads are modelled, with
 * their definitions from includes/admin/settings/views/settings-tax.php (radio `yes` / `no` and a
 * select `incl` / `excl`). A group that registers no settings is 404
 * `rest_setting_setting_group_invalid`, an id not in the group 404 `rest_setting_setting_invalid`.
 */
import type { Router } from './router.js';
import type { WooStore } from './store.js';
import { WpError } from './wp-error.js';

function taxOptions(store: WooStore) {
  const { pricesIncludeTax, taxDisplayCart } = store.settings;
  return [
    {
      id: 'woocommerce_prices_include_tax',
      label: 'Prices entered with tax',
      description: '',
      type: 'radio',
      default: 'no',
      tip: 'This option is important as it will affect how you input prices. Changing it will not update existing products.',
      options: { yes: 'Yes, I will enter prices inclusive of tax', no: 'No, I will enter prices exclusive of tax' },
      value: pricesIncludeTax ? 'yes' : 'no',
    },
    {
      id: 'woocommerce_tax_display_cart',
      label: 'Display prices during cart and checkout',
      description: '',
      type: 'select',
      default: 'excl',
      tip: '',
      options: { incl: 'Including tax', excl: 'Excluding tax' },
      value: taxDisplayCart,
    },
  ];
}

export function registerSettingsRoutes(router: Router, store: WooStore): void {
  router.add('GET', '/wc/v3/settings/{code}/{code}', 'read', (ctx) => {
    const [group, id] = ctx.params;
    if (group !== 'tax') throw new WpError(404, 'rest_setting_setting_group_invalid', 'Invalid setting group.');
    const setting = taxOptions(store).find((s) => s.id === id);
    if (!setting) throw new WpError(404, 'rest_setting_setting_invalid', 'Invalid setting.');
    const base = `${store.homeUrl()}/wp-json/wc/v3/settings/${group}`;
    return { body: { ...setting, _links: { self: [{ href: `${base}/${id}` }], collection: [{ href: base }] } } };
  });
}
