/** The WooCommerce adapter through the shared adapter contract suite, against the WooCommerce simulator. */
import { runAdapterContract } from '../contract/contract-suite.js';
import { controlsOf, fixturesOf, wooSubject } from './harness.js';

runAdapterContract('woocommerce', async () => {
  const { sim, adapter, close } = await wooSubject();
  return { adapter, fixtures: fixturesOf(sim), controls: controlsOf(sim), close };
});
