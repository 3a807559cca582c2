/**
 * Reads one demo data file and validates it, failing start-up with "<file>: <JSON path> <what is
 * expected>" (a CSV row is reported as $[row index].column).
 */
import { readFileSync } from 'node:fs';
import type { TSchema } from '@sinclair/typebox';
import { parse as parseCsv } from 'csv-parse/sync';
import { LRUCache } from 'lru-cache';
import { parse as parseYaml } from 'yaml';
import { ConfigError } from '../../kit/config-error.js';
import { compile } from '../../../schemas/validator.js';

function readText(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError(`${file}: cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
}

/**
 * Parsed files by name and text: tenants sharing a data folder, and every reload that leaves a
 * file as it was, parse it once (YAML parsing was most of a demo store's build). Callers get a
 * copy, so nothing they do reaches the next build.
 */
const parsed = new LRUCache<string, { value: unknown }>({ max: 64 });

function parse(file: string, text: string): unknown {
  const key = `${file}\0${text}`;
  const hit = parsed.get(key) ?? { value: parseText(file, text) };
  parsed.set(key, hit);
  return structuredClone(hit.value);
}

function parseText(file: string, text: string): unknown {
  try {
    // relax_quotes: promotions.csv holds a JSON array (with quotes) in an unquoted cell.
    return file.endsWith('.csv')
      ? parseCsv(text, { columns: true, skip_empty_lines: true, trim: true, relax_quotes: true })
      : parseYaml(text);
  } catch (error) {
    throw new ConfigError(`${file}: not valid ${file.endsWith('.csv') ? 'CSV' : 'YAML'}: ${(error as Error).message}`);
  }
}

export function readValidated<T>(file: string, schema: TSchema): T {
  const result = compile<T>(schema)(parse(file, readText(file)));
  if (!result.ok) throw new ConfigError(`${file}: ${result.message}`);
  return result.value;
}

/** A cross-reference or consistency problem found after the schemas passed. */
export function fileError(file: string, path: string, problem: string): ConfigError {
  return new ConfigError(`${file}: ${path} ${problem}`);
}
