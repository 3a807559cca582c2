/**
 * `npm run docker:demo-tenant`: writes docker/config/tenants/demo.yaml, the demo tenant as
 * docker-compose runs it, from config/tenants/demo.yaml, so the two never drift (a test
 * regenerates it and compares). Everything is the local demo's, comments included, except what
 * several replicas behind one load balancer need:
 *
 *   base_url         the load balancer's address, which the compose file publishes
 *   data_dir         the image's copy of config/demo
 *   signing          one key for every replica (DEMO_SIGNING_KEY), not a throw-away key per process
 *   simulation       its secret created once on the volume the replicas share (/app/state)
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { parseDocument, type Pair, type Scalar, type YAMLMap } from 'yaml';
import { exitOnHelp } from './cli-help.js';

export const LOCAL_FILE = 'config/tenants/demo.yaml';
export const DOCKER_FILE = 'docker/config/tenants/demo.yaml';
/** Where the compose file mounts the volume the gateway replicas share. */
export const SHARED_STATE = '/app/state';

/** Comments of the keys whose values differ from the local demo's. */
const COMMENTS: Record<string, string> = {
  id: [
    ` GENERATED from ${LOCAL_FILE} by \`npm run docker:demo-tenant\`: edit that file, then run the command.`,
    ' The demo tenant as docker-compose runs it (two replicas behind a load balancer): the local demo',
    ' but for its base_url (the load balancer), data_dir (the image holds config/demo at',
    ' /app/config/demo), signing and the simulation secret (below).',
  ].join('\n'),
  signing: [
    ' Every replica signs with the same key (DEMO_SIGNING_KEY, a private JWK from `npm run keys -- generate`),',
    ' so a platform verifies whichever replica answered.',
  ].join('\n'),
  simulation: [
    ' Order simulation (the demo store only): POST /simulate/orders/{id}/{action} with',
    ' Authorization: Bearer <secret> ships, delivers, refunds, returns or cancels a demo order and',
    ' sends the platform its order webhook. The first replica to start writes the secret to the',
    ` volume the replicas share; read it with`,
    ` docker compose -f docker/docker-compose.yml exec gateway-1 cat ${SHARED_STATE}/demo-simulation-secret`,
  ].join('\n'),
};

/** The docker tenant file's text, from the local one's. */
export async function dockerDemoTenant(local: string): Promise<string> {
  const doc = parseDocument(local);
  const top = doc.contents as YAMLMap<Scalar<string>, unknown>;
  const at = top.items.findIndex((pair) => pair.key.value === 'name');
  top.items.splice(at + 1, 0, doc.createPair('base_url', 'http://127.0.0.1:8080') as Pair<Scalar<string>, unknown>);
  doc.setIn(['adapter', 'settings', 'data_dir'], '/app/config/demo');
  doc.deleteIn(['signing', 'ephemeral_key']);
  doc.setIn(['signing', 'keys'], doc.createNode([{ env: 'DEMO_SIGNING_KEY' }], { flow: true }));
  doc.setIn(['simulation', 'secret'], doc.createNode({ file: `${SHARED_STATE}/demo-simulation-secret` }, { flow: true }));
  for (const pair of top.items) if (COMMENTS[pair.key.value]) pair.key.commentBefore = COMMENTS[pair.key.value];
  const prettier = await import('prettier');
  return prettier.format(doc.toString(), { ...(await prettier.resolveConfig(DOCKER_FILE)), filepath: DOCKER_FILE });
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  exitOnHelp({
    script: 'docker:demo-tenant',
    commands: [{ usage: '', does: `rewrites ${DOCKER_FILE} from ${LOCAL_FILE} (the demo tenant as docker-compose runs it)` }],
  });
  writeFileSync(DOCKER_FILE, await dockerDemoTenant(readFileSync(LOCAL_FILE, 'utf8')));
  process.stdout.write(`wrote ${DOCKER_FILE}\n`);
}
