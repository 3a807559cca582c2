/**
 * The WooCommerce adapter through the shared adapter contract suite, against the WooCommerce
 * simulator: a store whose prices exclude tax, and one whose prices include it
 * (`woocommerce_prices_include_tax`: quotes and orders gross, the tax they contain `includedTax`).
 */
import { runAdapterContract } from '../contract/contract-suite.js';
import { controlsOf, fixturesOf, wooSubject } from './harness.js';

runAdapterContract('woocommerce', async () => {
  const { sim, adapter, close } = await wooSubject();
  return { adapter, fixtures: fixturesOf(sim), controls: controlsOf(sim), close };
});

runAdapterContract('woocommerce, prices including tax', async () => {
  const { sim, adapter, close } = await wooSubject({ simulator: { pricesIncludeTax: true, taxDisplayCart: 'incl' } });
  return { adapter, fixtures: fixturesOf(sim), controls: controlsOf(sim), close };
});
