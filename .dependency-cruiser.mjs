/**
 * The layers of the gateway (docs/architecture.md), checked by `npm run depcruise` and by
 * test/architecture/layers.test.ts. A module imports only its own layer or the ones below it,
 * and the foundation, which every layer may use and which imports nothing but itself.
 * No module takes part in an import cycle.
 */

/** Top to bottom; each entry is the paths that make up one layer. */
const LAYERS = [
  { name: 'composition', path: '^src/(main|server)\\.ts$' },
  // Everything that speaks HTTP: REST, MCP, discovery, health, pages, backend webhooks.
  { name: 'transports', path: '^src/(transports|webhooks)/' },
  // Runs operations (idempotency, rate limits, answer cache) and observes the layers below.
  { name: 'pipeline', path: '^src/(pipeline|observability)/' },
  // With their contract (capabilities/operation.ts, context.ts): what capabilities implement and the pipeline runs.
  { name: 'capabilities', path: '^src/(capabilities|extensions)/' },
  // A tenant: its configured adapter, payment handlers, capabilities, policies, keys.
  { name: 'tenancy', path: '^src/tenancy/' },
  // Payment handlers: providers a tenant is configured with, beside its adapter.
  { name: 'payments', path: '^src/payments/' },
  // The platforms' adapters and the registry that builds them; their contract is foundation.
  { name: 'adapters', path: '^adapters/(?!(contract|simulator)\\.ts$)' },
  { name: 'state', path: '^src/state/' },
];

/**
 * Protocol vocabulary, configuration, signatures, outbound HTTP, validation, wire schemas, and the
 * adapter contract (the store-side vocabulary every layer down to the adapters speaks).
 */
const FOUNDATION = '^(src/(protocol|config|security|net|validation)/|schemas/|adapters/(contract|simulator)\\.ts$)';

const upwards = LAYERS.slice(1).map((layer, index) => ({
  name: `${layer.name}-imports-upwards`,
  comment: `${layer.name} may import only ${LAYERS.slice(index + 1)
    .map((l) => l.name)
    .join(', ')} and the foundation`,
  severity: 'error',
  from: { path: layer.path },
  to: { path: LAYERS.slice(0, index + 1).flatMap((l) => l.path) },
}));

export default {
  forbidden: [
    ...upwards,
    {
      name: 'foundation-imports-layers',
      comment: 'the foundation (protocol, config, security, net, validation, schemas) imports only itself',
      severity: 'error',
      from: { path: FOUNDATION },
      to: { path: LAYERS.flatMap((l) => l.path) },
    },
    {
      name: 'state-imports-protocol',
      comment:
        'of the foundation, state uses only config: it speaks of records and queues, ' +
        'never protocol errors or wire shapes (errors are mapped above)',
      severity: 'error',
      from: { path: '^src/state/' },
      to: { path: '^(src/(protocol|security|net|validation)/|schemas/)' },
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
      comment: 'outside adapters/, only the contract and the registry are imported: what differs per platform stays in its folder',
      severity: 'error',
      from: { pathNot: '^adapters/' },
      to: { path: '^adapters/[^/]+/' },
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
