/**
 * The simulated setting options route (`GET wc/v3/settings/{group}/{id}`) as WooCommerce answers it
 * (includes/rest-api/Controllers/Version2/class-wc-rest-setting-options-v2-controller.php get_item,
 * get_setting, filter_setting; the tax options of includes/admin/settings/views/settings-tax.php):
 * the option's current `value` with its id, label, type and options; an unknown setting or group 404.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startWooSimulator, type WooSimulator } from '../../simulators/woocommerce/server.js';
import { refused, restClient } from '../helpers/woo-clients.js';

let sim: WooSimulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

describe('GET wc/v3/settings/tax/{id}', () => {
  it('answers woocommerce_prices_include_tax as the radio option it is, its value the store’s', async () => {
    for (const pricesIncludeTax of [false, true]) {
      sim = await startWooSimulator({ pricesIncludeTax });
      const api = await restClient(sim.url);
      const { status, data } = await api.get('settings/tax/woocommerce_prices_include_tax');
      expect(status).toBe(200);
      expect(data).toMatchObject({
        id: 'woocommerce_prices_include_tax',
        label: 'Prices entered with tax',
        type: 'radio',
        default: 'no',
        options: { yes: 'Yes, I will enter prices inclusive of tax', no: 'No, I will enter prices exclusive of tax' },
        value: pricesIncludeTax ? 'yes' : 'no',
      });
      await sim.close();
      sim = undefined;
    }
  });

  it('refuses an unknown setting or group with 404', async () => {
    sim = await startWooSimulator();
    const api = await restClient(sim.url);
    expect(await refused(api.get('settings/tax/no_such_option'))).toMatchObject({
      status: 404,
      data: { code: 'rest_setting_setting_invalid', message: 'Invalid setting.' },
    });
    expect(await refused(api.get('settings/nothing/woocommerce_prices_include_tax'))).toMatchObject({
      status: 404,
      data: { code: 'rest_setting_setting_group_invalid', message: 'Invalid setting group.' },
    });
  });
});
