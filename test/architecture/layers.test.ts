/**
 * The layers (docs/architecture.md, rules in .dependency-cruiser.mjs): every module of src/ is in
 * one, no import runs back up them and none takes part in a cycle. A failure lists each offending
 * import with its rule, or the module that is in no layer.
 */
import { fileURLToPath } from 'node:url';
import { cruise, type ICruiseResult } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** Each violation as one line: `rule: from → to` (a cycle lists its path; a module-wide rule names the module). */
async function violations(baseDir: string, folders: string[]): Promise<string[]> {
  const options = await extractDepcruiseOptions(`${root}.dependency-cruiser.mjs`);
  const tsConfig = extractTSConfig(`${root}tsconfig.json`);
  const { output } = await cruise(folders, { ...options, baseDir, validate: true }, {}, { tsConfig });
  return (output as ICruiseResult).summary.violations.map((v) =>
    v.type === 'module'
      ? `${v.rule.name}: ${v.from}`
      : `${v.rule.name}: ${[v.from, ...(v.cycle?.map((c) => c.name) ?? [v.to])].join(' → ')}`,
  );
}

describe('layers', () => {
  it('every module of src/ is in a layer; no import in src/, adapters/ or schemas/ runs back up the layers or closes a cycle', async () => {
    expect(await violations(root, ['src', 'adapters', 'schemas'])).toEqual([]);
  });

  it('a state module importing a transport is reported', async () => {
    const fixture = fileURLToPath(new URL('fixtures/back-edge/', import.meta.url));
    expect(await violations(fixture, ['src'])).toEqual(['state-imports-upwards: src/state/leak.ts → src/transports/route.ts']);
  });

  it('a module in a folder no layer names is reported, even when a placed module imports it', async () => {
    const fixture = fileURLToPath(new URL('fixtures/unplaced/', import.meta.url));
    expect(await violations(fixture, ['src'])).toEqual(['in-no-layer: src/sessions/cookie.ts']);
  });
});
