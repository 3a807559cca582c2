/**
 * The README's shell blocks by section, and the script a newcomer's paste amounts to: the blocks
 * from "Try it" to "Follow orders" (or the sections asked for) in order, in one shell that stops at the first failure, with
 * the documented ports (8080 for the gateway, 9000 for the example agent) swapped for free ones.
 * Each block's output follows a `::block <n>::` line; `::end::` closes the run.
 */
export interface ReadmeSections {
  /** Blocks before the first section: the newcomer's first commands. */
  intro: string[];
  /** Blocks by section title (## or ###). */
  bySection: Map<string, string[]>;
}

export function readmeSections(markdown: string): ReadmeSections {
  const bySection = new Map<string, string[]>();
  const intro: string[] = [];
  let current: string[] = intro;
  for (const part of markdown.split(/^(#{2,3} .*)$/m)) {
    if (/^#{2,3} /.test(part)) {
      current = [];
      bySection.set(part.replace(/^#+ /, '').trim(), current);
      continue;
    }
    for (const match of part.matchAll(/^```sh\n([\s\S]*?)^```$/gm)) current.push(match[1]!);
  }
  return { intro, bySection };
}

const PASTED_SECTIONS = ['Try it', 'Try a checkout', 'Follow orders'];

export function readmeScript(sections: ReadmeSections, ports: { gateway: number; agent: number }, titles = PASTED_SECTIONS): string {
  const blocks = titles.flatMap((title) => {
    const found = sections.bySection.get(title);
    if (!found?.length) throw new Error(`README has no shell block under "${title}"`);
    return found;
  });
  const swapped = blocks.map((block) => block.replace(/\b8080\b/g, String(ports.gateway)).replace(/\b9000\b/g, String(ports.agent)));
  return ['set -eo pipefail', ...swapped.flatMap((block, i) => [`echo '::block ${i}::'`, block]), "echo '::end::'"].join('\n');
}
