/**
 * The layers of the gateway (docs/architecture.md), checked by `npm run depcruise` and by
 * test/architecture/layers.test.ts, as plain folder rules. Every module of src/ is in a layer, the
 * foundation or the browser page; a module imports only its own layer, the ones below it, and the
 * foundation (which imports nothing above itself). Type-only imports count. adapters/
 * imports nothing from src/: what an adapter needs is declared in its contract and kit. No module
 * takes part in an import cycle.
 */

/** Top to bottom; each entry is the folders that make up one layer. */
const LAYERS = [
  { name: 'composition', path: '^src/(main|server)\\.ts$' },
  // Everything that speaks HTTP (REST, MCP, discovery, health, pages, backend webhooks), and the
  // background workers, which drive capabilities the way requests do.
  // The embedded transport is one slice (src/embedded/): its folders sit in the layers they belong to.
  // Identity linking's HTTP side (OAuth routes, login and consent pages) is src/transports/identity/.
  { name: 'transports', path: '^src/(transports|webhooks|workers|embedded/transport)/' },
  // Runs operations (idempotency, rate limits, answer cache) and observes the layers below.
  { name: 'pipeline', path: '^src/(pipeline|observability|embedded/session)/' },
  // With their contract (capabilities/operation.ts, context.ts): what capabilities implement and the pipeline runs.
  { name: 'capabilities', path: '^src/(capabilities|extensions)/' },
  // A tenant: its configured adapter (through the adapter registry), payment handlers, policies, keys.
  { name: 'tenancy', path: '^src/tenancy/' },
  // Identity linking's domain: a tenant's authorization server (tenancy builds it), federated login, login limits, scopes.
  { name: 'identity', path: '^src/identity/' },
  // Payment handlers: providers a tenant is configured with, beside its adapter.
  { name: 'payments', path: '^src/payments/' },
  { name: 'state', path: '^src/state/' },
];

/** Protocol vocabulary, configuration, signatures, outbound HTTP: usable from every layer of src/. */
const FOUNDATION = '^src/(protocol|config|security|net)/|^src/embedded/settings\\.ts$';

/** The embedded page: browser code, compiled on its own, beside the layers (it imports none of them). */
const BROWSER_PAGE = '^src/embedded/page/';

const upwards = LAYERS.slice(1).map((layer, index) => ({
  name: `${layer.name}-imports-upwards`,
  comment: `${layer.name} may import only ${LAYERS.slice(index + 1)
    .map((l) => l.name)
    .join(', ')} and the foundation`,
  severity: 'error',
  from: { path: layer.path },
  to: { path: LAYERS.slice(0, index + 1).map((l) => l.path) },
}));

/**
 * Every module of src/ is in a layer, the foundation or the browser page, so the rules above
 * reach it. A required rule holds for a module that depends on its `to`; this one's `to` matches
 * nothing (no path is empty), so each module outside them is reported once, imported or not.
 */
const placed = {
  name: 'in-no-layer',
  comment: 'every folder of src/ belongs to a layer (docs/architecture.md); place a new one in LAYERS or FOUNDATION',
  severity: 'error',
  module: { path: '^src/', pathNot: [...LAYERS.map((l) => l.path), FOUNDATION, BROWSER_PAGE] },
  to: { path: '^$' },
};

export default {
  required: [placed],
  forbidden: [
    ...upwards,
    {
      name: 'foundation-imports-layers',
      comment: 'the foundation (protocol, config, security, net) imports only itself, schemas/ and the adapter contract and kit',
      severity: 'error',
      from: { path: FOUNDATION },
      to: { path: LAYERS.map((l) => l.path) },
    },
    {
      name: 'embedded-page-imports-gateway',
      comment: 'the embedded page is browser code: it imports only its own modules and types of the wire schemas',
      severity: 'error',
      from: { path: BROWSER_PAGE },
      to: { path: '^(src|adapters)/', pathNot: BROWSER_PAGE },
    },
    {
      name: 'adapters-import-src',
      comment: 'adapters/ depends only on schemas/ and its own contract and kit: src/ passes in what they need',
      severity: 'error',
      from: { path: '^adapters/' },
      to: { path: '^src/' },
    },
    {
      name: 'schemas-import-gateway',
      comment: 'the wire schemas (and their validator) are the bottom: they import only themselves',
      severity: 'error',
      from: { path: '^schemas/' },
      to: { path: '^(src|adapters)/' },
    },
    {
      name: 'state-imports-protocol',
      comment:
        'of the foundation, state uses only config: it speaks of records and queues, ' +
        'never protocol errors or wire shapes (errors are mapped above)',
      severity: 'error',
      from: { path: '^src/state/' },
      to: { path: '^(src/(protocol|security|net)/|schemas/)' },
    },
    {
      name: 'depends-on-a-concrete-store',
      comment: 'everything but the composition root works against the StateStore interface (state/store.ts)',
      severity: 'error',
      from: { pathNot: '^src/(state/|main\\.ts$)' },
      to: { path: '^src/state/(redis|memory)-store\\.ts$' },
    },
    {
      name: 'reaches-into-an-adapter',
      comment: 'outside adapters/, only the contract, the registry and the kit are imported: what differs per platform stays in its folder',
      severity: 'error',
      from: { pathNot: '^adapters/' },
      to: { path: '^adapters/[^/]+/', pathNot: '^adapters/kit/' },
    },
    {
      name: 'no-circular',
      comment: 'an import cycle ties modules that should be separable',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    includeOnly: '^(src|adapters|schemas)/',
    // Type-only imports count: a type that runs back up the layers couples as much as a value.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
