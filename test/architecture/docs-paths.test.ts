/**
 * The docs name files that exist: every repository path README.md and docs/ mention
 * (`src/...`, `test/...`, `docs/...` and the other top-level folders), and every source path
 * written relative to src/ (`state/session-repository.ts`), outside fenced examples, so a move or
 * rename that forgets the docs fails here.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));

const markdown = (folder: string): string[] =>
  readdirSync(join(root, folder), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? markdown(join(folder, entry.name)) : entry.name.endsWith('.md') ? [join(folder, entry.name)] : [],
  );

const DOCS = ['README.md', ...markdown('docs')];

/** A path from the repository root; not part of a URL (`shopify.dev/docs/api/...`). */
const ROOTED = /(?<![\w./-])(?:src|test|docs|adapters|schemas|scripts|bench|config|examples|simulators|docker)\/[\w./-]*[\w-]/g;
/** A source file relative to src/ (`state/store.ts`), as the code comments write them. */
const SRC_RELATIVE =
  /(?<![\w./-])(?!(?:src|test|docs|adapters|schemas|scripts|bench|config|examples|simulators|docker)\/)(?:[\w-]+\/)+[\w.-]+\.ts\b/g;

/** Files the gateway writes on its first start (`config/demo-simulation-secret`) are ignored by git, not missing. */
const generated = new Set(
  readFileSync(join(root, '.gitignore'), 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#')),
);

/** A path from the root or from src/ (`config/...` names both the tenant files' folder and src/config/). */
const exists = (path: string) => generated.has(path) || existsSync(join(root, path)) || existsSync(join(root, 'src', path));

function missing(doc: string): string[] {
  // Fenced blocks hold examples, often of files yet to be written (a new extension's folder).
  const text = readFileSync(join(root, doc), 'utf8').replace(/^```[^\n]*\n[\s\S]*?^```/gm, '');
  const rooted = [...text.matchAll(ROOTED)].map((m) => m[0]).filter((path) => !exists(path));
  const relative = [...text.matchAll(SRC_RELATIVE)].map((m) => m[0]).filter((path) => !exists(path));
  return [...new Set([...rooted, ...relative])].map((path) => `${doc}: ${path}`);
}

describe('docs', () => {
  it('name only paths that exist', () => {
    expect(DOCS.flatMap(missing)).toEqual([]);
  });
});
