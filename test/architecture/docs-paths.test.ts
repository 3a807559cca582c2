/**
 * The docs and the code's comments name files that exist, so a move or rename that forgets them
 * fails here. Docs (README.md, docs/): every repository path (`src/...`, `test/...`, `docs/...` and
 * the other top-level folders) and every source path written relative to src/
 * (`state/session-repository.ts`), outside fenced examples. Comments of the TypeScript in src/,
 * adapters/, schemas/, simulators/, scripts/, bench/, examples/ and test/: the same, a `.ts` path
 * also relative to the commenting file's folder or one above it (as an adapter names the kit), a
 * file name alone (`admin.ts`) somewhere in the repository, and a `:line` within the file.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));

const TOP = ['src', 'test', 'docs', 'adapters', 'schemas', 'scripts', 'bench', 'config', 'examples', 'simulators', 'docker'];
const CODE = ['src', 'adapters', 'schemas', 'simulators', 'scripts', 'bench', 'examples', 'test'];

/** Every file under a folder of the repository, as a path from the root (installed packages and build output left out). */
const filesUnder = (folder: string): string[] =>
  readdirSync(join(root, folder), { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (!entry.isDirectory()) return [path];
    return entry.name === 'node_modules' || entry.name === 'dist' ? [] : filesUnder(path);
  });

const DOCS = ['README.md', ...filesUnder('docs').filter((path) => path.endsWith('.md'))];
const SOURCES = CODE.flatMap(filesUnder).filter((path) => path.endsWith('.ts'));
const FOLDER_NAMES = new Set(SOURCES.flatMap((path) => dirname(path).split('/')));
const FILE_NAMES = new Set(SOURCES.map((path) => path.split('/').pop()));
const EXTENSIONS = new Set(
  TOP.filter((f) => existsSync(join(root, f)))
    .flatMap(filesUnder)
    .map((path) => extname(path)),
);

/** A path from the repository root, with its `:line` if any; not part of a URL (`shopify.dev/docs/api/...`). */
const ROOTED = new RegExp(String.raw`(?<![\w./@-])(?:${TOP.join('|')})\/[\w./-]*[\w-](?::\d+)?`, 'g');
/** A source file relative to src/ (`state/store.ts`), as the code comments write them. */
const RELATIVE = new RegExp(String.raw`(?<![\w./@-])(?!(?:${TOP.join('|')})\/)(?:\.{1,2}\/)*(?:[\w-]+\/)+[\w.-]+\.ts\b(?::\d+)?`, 'g');
/** A source file's name alone (`admin.ts`). */
const BARE = /(?<![\w./@-])[\w.-]+\.ts\b(?![/\w])/g;

/**
 * What git ignores is written by a run, not missing: files the gateway writes on its first start
 * (`config/demo-simulation-secret`), installed packages (`examples/medusa-store/node_modules/...`).
 */
const IGNORED = readFileSync(join(root, '.gitignore'), 'utf8')
  .split('\n')
  .map((line) => line.trim())
  .filter((line) => line && !line.startsWith('#'));
/** As git reads .gitignore: an entry with an inner slash from the root, one without at any depth. */
function generated(path: string): boolean {
  return IGNORED.map((entry) => entry.replace(/\/$/, '')).some((entry) =>
    entry.includes('/') ? path === entry || path.startsWith(`${entry}/`) : path.split('/').includes(entry),
  );
}

/** The path (its `.ts` source for a built `.js`) exists in one of the folders, and has the line a `:line` names. */
function existsIn(folders: readonly string[], named: string): boolean {
  const [, path = named, line] = /^(.*?)(?::(\d+))?$/.exec(named) ?? [];
  const candidates = folders.flatMap((folder) => [join(folder, path), join(folder, path.replace(/\.js$/, '.ts'))]);
  const found = candidates.find((candidate) => existsSync(join(root, candidate)));
  if (!found || !line) return found !== undefined || generated(path);
  return readFileSync(join(root, found), 'utf8').split('\n').length >= Number(line);
}

/**
 * Another project's file that a comment cites: WooCommerce's PHP classes (`src/StoreApi/...`, a
 * folder in PascalCase, which this repository never has), a file type this repository has none of
 * (`test/test.py`), or a source path whose first folder is no folder of this repository
 * (Medusa's `packages/core/...`).
 */
function elsewhere(path: string, rooted: boolean): boolean {
  if (!rooted) return !FOLDER_NAMES.has(path.replace(/^(?:\.{1,2}\/)+/, '').split('/')[0]!);
  const extension = extname(path.replace(/:\d+$/, ''));
  return /\/[A-Z]/.test(path) || (extension !== '' && !EXTENSIONS.has(extension));
}

function missingInDoc(doc: string): string[] {
  // Fenced blocks hold examples, often of files yet to be written (a new extension's folder).
  const text = readFileSync(join(root, doc), 'utf8').replace(/^```[^\n]*\n[\s\S]*?^```/gm, '');
  const rooted = [...text.matchAll(ROOTED)].map((m) => m[0]).filter((path) => !existsIn(['.', 'src'], path));
  const relative = [...text.matchAll(RELATIVE)].map((m) => m[0]).filter((path) => !existsIn(['.', 'src'], path));
  return [...new Set([...rooted, ...relative])].map((path) => `${doc}: ${path}`);
}

const K = ts.SyntaxKind;
/** Tokens after which a `/` divides; anywhere else it opens a regular expression. */
const ENDS_OPERAND = new Set([
  K.Identifier,
  K.PrivateIdentifier,
  K.NumericLiteral,
  K.BigIntLiteral,
  K.StringLiteral,
  K.NoSubstitutionTemplateLiteral,
  K.TemplateTail,
  K.RegularExpressionLiteral,
  K.CloseParenToken,
  K.CloseBracketToken,
  K.CloseBraceToken,
  K.ThisKeyword,
  K.SuperKeyword,
  K.TrueKeyword,
  K.FalseKeyword,
  K.NullKeyword,
  K.PlusPlusToken,
  K.MinusMinusToken,
]);

/** The comments of a TypeScript file, read with TypeScript's own scanner (strings, templates and regular expressions skipped). */
function comments(text: string): string[] {
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, false, ts.LanguageVariant.Standard, text);
  const found: string[] = [];
  const braces: ('template' | 'block')[] = [];
  let previous = K.Unknown;
  for (let kind = scanner.scan(); kind !== K.EndOfFileToken; kind = scanner.scan()) {
    if (kind === K.SingleLineCommentTrivia || kind === K.MultiLineCommentTrivia) found.push(scanner.getTokenText());
    if (kind === K.SingleLineCommentTrivia || kind === K.MultiLineCommentTrivia || kind === K.WhitespaceTrivia || kind === K.NewLineTrivia)
      continue;
    if ((kind === K.SlashToken || kind === K.SlashEqualsToken) && !ENDS_OPERAND.has(previous)) kind = scanner.reScanSlashToken();
    else if (kind === K.TemplateHead || kind === K.OpenBraceToken) braces.push(kind === K.TemplateHead ? 'template' : 'block');
    else if (kind === K.CloseBraceToken && braces.pop() === 'template') {
      kind = scanner.reScanTemplateToken(false);
      if (kind === K.TemplateMiddle) braces.push('template');
    }
    previous = kind;
  }
  return found;
}

function missingInComments(file: string): string[] {
  const above: string[] = [];
  for (let folder = dirname(file); folder !== '.'; folder = dirname(folder)) above.push(folder);
  const text = comments(readFileSync(join(root, file), 'utf8')).join('\n');
  const rooted = [...text.matchAll(ROOTED)].map((m) => m[0]).filter((path) => !elsewhere(path, true) && !existsIn(['.', ...above], path));
  const relative = [...text.matchAll(RELATIVE)]
    .map((m) => m[0])
    .filter((path) => !elsewhere(path, false) && !existsIn(['.', 'src', ...above], path));
  const bare = [...text.matchAll(BARE)].map((m) => m[0]).filter((name) => !FILE_NAMES.has(name));
  return [...new Set([...rooted, ...relative, ...bare])].map((path) => `${file}: ${path}`);
}

describe('paths named', () => {
  it('by the docs exist', () => {
    expect(DOCS.flatMap(missingInDoc)).toEqual([]);
  });

  it("by the code's comments exist", () => {
    expect(SOURCES.flatMap(missingInComments)).toEqual([]);
  });
});
