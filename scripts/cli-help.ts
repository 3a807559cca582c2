/**
 * What every command-line tool says about itself: each command with one line of what it does,
 * then what it reads from the environment. `--help` (or `-h`, or `help` first) prints it on stdout
 * and exits 0 before the tool reads its environment, so it answers whatever STORE, CONFIG_DIR or
 * PORT say; a command the tool does not know prints it on stderr and exits 2.
 */
export interface CommandHelp {
  /** The command and its arguments, after `npm run <tool> --` (empty: the tool takes none). */
  usage: string;
  /** What it does, one line. */
  does: string;
}

export interface ToolHelp {
  /** The npm script: `agent`, `demo:rest`. */
  script: string;
  commands: readonly CommandHelp[];
  /** Lines after the commands: the environment it reads, defaults. */
  notes?: readonly string[];
}

export const asksForHelp = (args: readonly string[]): boolean => args.includes('--help') || args.includes('-h') || args[0] === 'help';

export function helpText({ script, commands, notes = [] }: ToolHelp): string {
  const invocation = (usage: string) => `npm run ${script}${usage ? ` -- ${usage}` : ''}`;
  return [
    'usage:',
    ...commands.flatMap((command) => [`  ${invocation(command.usage)}`, `      ${command.does}`]),
    ...(notes.length > 0 ? ['', ...notes] : []),
  ].join('\n');
}

/** For a tool that starts something at once (a demo, a simulator): with `--help` it prints its help and exits 0 instead. */
export function exitOnHelp(help: ToolHelp, args: readonly string[] = process.argv.slice(2)): void {
  if (!asksForHelp(args)) return;
  process.stdout.write(`${helpText(help)}\n`);
  process.exit(0);
}
