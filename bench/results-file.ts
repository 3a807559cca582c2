/** bench/results.md holds one section per benchmark script; each run rewrites only its own. */
import { readFile, writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { resolve } from 'node:path';

const FILE = resolve('bench/results.md');
const TITLE = '# Benchmark results\n\nWritten by `npm run bench` and `npm run bench:soak`; each rewrites its own section.\n';

export function machine(): string {
  const cpu = cpus();
  return `${cpu.length} × ${cpu[0]?.model.trim() ?? 'unknown CPU'}, Node ${process.version}`;
}

export async function writeSection(name: string, markdown: string): Promise<void> {
  const current = await readFile(FILE, 'utf8').catch(() => TITLE);
  const start = `<!-- ${name} -->`;
  const end = `<!-- /${name} -->`;
  const section = `${start}\n${markdown.trim()}\n${end}`;
  const pattern = new RegExp(`${start}[\\s\\S]*?${end}`);
  await writeFile(FILE, pattern.test(current) ? current.replace(pattern, section) : `${current.trimEnd()}\n\n${section}\n`);
}
