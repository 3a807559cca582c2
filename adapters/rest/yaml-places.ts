/**
 * Where an inline JSONata expression sits in the tenant's YAML file, so its errors name
 * `flowers.yaml:140:9` as a mapping file's do. The file is read again (once per change) and the
 * expression found at its JSON path; only when the text there is the expression's own (settings
 * given otherwise, e.g. by a test, have no place). A block literal (`|`) maps line for line, a
 * one-line plain or quoted scalar character for character; another scalar points at its start.
 */
import { readFileSync, statSync } from 'node:fs';
import { isScalar, LineCounter, parseDocument, type Document } from 'yaml';

export interface YamlOrigin {
  /** The tenant file as the error shows it. */
  file: string;
  /** Line and column (1-based) in the file of a character offset of the expression. */
  place(offset: number): { line: number; column: number };
}

const parsed = new Map<string, { mtimeMs: number; doc: Document; lines: LineCounter; text: string }>();

function read(file: string) {
  let mtimeMs: number;
  try {
    mtimeMs = statSync(file).mtimeMs;
  } catch {
    return undefined;
  }
  const known = parsed.get(file);
  if (known?.mtimeMs === mtimeMs) return known;
  const text = readFileSync(file, 'utf8');
  const lines = new LineCounter();
  const entry = { mtimeMs, doc: parseDocument(text, { lineCounter: lines }), lines, text };
  parsed.set(file, entry);
  return entry;
}

/** `$.adapter.settings.operations.x.steps[0].query` as keys. */
const keysOf = (path: string) => (path.replace(/^\$\.?/, '').match(/[^.[\]]+/g) ?? []).map((k) => (/^\d+$/.test(k) ? Number(k) : k));

export function yamlOrigin(tenantFile: string, path: string, expression: string): YamlOrigin | undefined {
  const source = read(tenantFile);
  const node = source?.doc.getIn(keysOf(path), true);
  if (!source || !isScalar(node) || node.value !== expression || !node.range) return undefined;
  const start = node.range[0];
  const at = (offset: number) => {
    const { line, col } = source.lines.linePos(offset);
    return { line, column: col };
  };
  if (node.type === 'BLOCK_LITERAL') {
    const header = at(start).line;
    const body = source.text.split('\n').slice(header);
    const indent = /^ */.exec(body.find((l) => l.trim() !== '') ?? '')![0].length;
    return {
      file: tenantFile,
      place(offset) {
        const before = expression.slice(0, offset).split('\n');
        return { line: header + before.length, column: indent + before.at(-1)!.length + 1 };
      },
    };
  }
  const quoted = node.type === 'QUOTE_SINGLE' || node.type === 'QUOTE_DOUBLE' ? 1 : 0;
  const oneLine = !expression.includes('\n') && !/\\|''/.test(source.text.slice(start, node.range[1]));
  return { file: tenantFile, place: (offset) => at(oneLine ? start + quoted + offset : start) };
}
