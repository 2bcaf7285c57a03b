import { parseArgs } from 'node:util';
import { systemClock } from '../clock.js';
import { ConfigError, loadConfig } from '../config.js';
import { AppError } from '../domain/errors.js';
import { openUpgradedStore } from '../open-upgraded-store.js';
import { commands, UsageError, type Command, type CommandOption } from './commands.js';

const exitCodes = { usage: 2, failed: 1 } as const;

/** The commands that run the service rather than change its data: they take no options but --json. */
const serviceCommands: Record<string, string> = {
  serve: 'start the HTTP API (what npm start runs)',
  worker: 'run the webhook worker alone (serve runs one too)',
  migrate: 'apply pending store migrations, then recompute what older versions derived',
};

const helpFlags = ['--help', '-h'];

/** `--name VALUE`, the value written as its choices or its name. */
function optionWithValue(name: string, spec: CommandOption): string {
  return spec.type === 'boolean' ? `--${name}` : `--${name} ${spec.choices?.join('|') ?? name.toUpperCase()}`;
}

function optionSynopsis(name: string, spec: CommandOption): string {
  return spec.required ? optionWithValue(name, spec) : `[${optionWithValue(name, spec)}]`;
}

function usage(): string {
  const lines = ['Usage: gantry <command> [options] [--json]', '', 'Commands:'];
  for (const [name, summary] of Object.entries(serviceCommands)) lines.push(`  ${name.padEnd(22)}  ${summary}`);
  for (const [name, command] of Object.entries(commands)) {
    const options = Object.entries(command.options).map(([option, spec]) => optionSynopsis(option, spec));
    lines.push(`  ${name.padEnd(22)}  ${command.summary}`, `      ${options.join(' ')}`);
  }
  lines.push(
    '',
    'Options of every command: --json (print JSON), --help (what the command does and its options).',
    'The store is chosen by the environment (DATA_DIR, or DATABASE_URL for PostgreSQL), as for the server.',
  );
  return lines.join('\n');
}

/** One command's usage, its options explained. */
function commandUsage(name: string, summary: string, options: Record<string, CommandOption>): string {
  const explained: [string, string][] = [...Object.entries(options).map(([option, spec]): [string, string] => [optionWithValue(option, spec), spec.help]), ['--json', 'print the result as JSON']];
  const width = Math.max(...explained.map(([option]) => option.length));
  const synopsis = [name, ...Object.entries(options).map(([option, spec]) => optionSynopsis(option, spec)), '[--json]'].join(' ');
  return [`Usage: gantry ${synopsis}`, '', summary, '', 'Options:', ...explained.map(([option, help]) => `  ${option.padEnd(width)}  ${help}`)].join('\n');
}

/** The usage `gantry help <words>` or `gantry <words> --help` asks for: of every command the words begin. */
function helpFor(words: string[]): string {
  if (words.length === 0) return usage();
  const asked = words.join(' ');
  const named = (name: string) => name === asked || name.startsWith(`${asked} `);
  const usages = [
    ...Object.entries(serviceCommands).filter(([name]) => named(name)).map(([name, summary]) => commandUsage(name, summary, {})),
    ...Object.entries(commands).filter(([name]) => named(name)).map(([name, command]) => commandUsage(name, command.summary, command.options)),
  ];
  if (usages.length === 0) throw new UsageError(`unknown command: ${asked}\n\n${usage()}`);
  return usages.join('\n\n');
}

function parseCommand(command: Command, args: string[]): Record<string, string | undefined> {
  const { values: parsed } = parseArgs({
    args,
    strict: true,
    allowPositionals: false,
    options: { ...Object.fromEntries(Object.entries(command.options).map(([name, spec]) => [name, { type: spec.type }])), json: { type: 'boolean' } },
  });
  const values = parsed as Record<string, string | boolean | undefined>;
  const problems: string[] = [];
  for (const [name, spec] of Object.entries(command.options)) {
    const value = values[name];
    if (spec.required && (value === undefined || value === '')) problems.push(`--${name} is required (${spec.help})`);
    if (typeof value === 'string' && spec.choices && !spec.choices.includes(value)) {
      problems.push(`--${name} must be one of ${spec.choices.join(', ')}`);
    }
  }
  if (problems.length > 0) throw new UsageError(problems.join('\n'));
  return values as Record<string, string | undefined>;
}

/** Runs one CLI invocation; resolves to the process exit code. */
export async function runCli(argv: string[]): Promise<number> {
  const [first, second, ...rest] = argv;
  const json = argv.includes('--json');
  const print = (payload: unknown, text: string) => console.log(json ? JSON.stringify(payload) : text);
  try {
    if (!first) {
      console.log(usage());
      return exitCodes.usage;
    }
    if (first === 'help' || argv.some((arg) => helpFlags.includes(arg))) {
      const words = first === 'help' ? argv.slice(1) : argv;
      const optionAt = words.findIndex((arg) => arg.startsWith('-'));
      console.log(helpFor(optionAt === -1 ? words : words.slice(0, optionAt)));
      return 0;
    }
    if (first in serviceCommands) {
      // These take no options but --json: anything else is a mistake worth saying.
      parseArgs({ args: argv.slice(1), strict: true, allowPositionals: false, options: { json: { type: 'boolean' } } });
    }
    const config = loadConfig(process.env);
    // The service is loaded only to run it: administration commands start quicker without it.
    if (first === 'serve') {
      await (await import('../main.js')).serve(config);
      return -1;
    }
    if (first === 'worker') {
      await (await import('../main.js')).work(config);
      return -1;
    }
    if (first === 'migrate') {
      const { store, applied, recomputedProjects } = await openUpgradedStore(config, systemClock);
      await store.close();
      const done = [...(applied.length > 0 ? [`applied: ${applied.join(', ')}`] : []), ...(recomputedProjects > 0 ? [`recomputed the plans of ${recomputedProjects} projects`] : [])];
      print({ applied, recomputedProjects }, done.length > 0 ? done.join('\n') : 'the store is up to date');
      return 0;
    }
    const command = commands[`${first} ${second ?? ''}`];
    if (!command) throw new UsageError(`unknown command: ${[first, second].filter(Boolean).join(' ')}\n\n${usage()}`);
    const values = parseCommand(command, rest);
    const { store } = await openUpgradedStore(config, systemClock);
    try {
      const result = await command.run({ store, clock: systemClock, baseUrl: config.baseUrl }, values);
      print(result.json, result.text);
    } finally {
      await store.close();
    }
    return 0;
  } catch (error) {
    const usageError = error instanceof UsageError || error instanceof ConfigError || (error instanceof TypeError && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS'));
    if (usageError) {
      console.error(json ? JSON.stringify({ error: 'invalid_request', message: error.message }) : `gantry: ${error.message}`);
      return exitCodes.usage;
    }
    if (error instanceof AppError) {
      if (json) console.error(JSON.stringify({ error: error.code, message: error.message, ...(error.details ? { details: error.details } : {}) }));
      else console.error(`gantry: ${error.message}`);
      return error.code === 'invalid_request' ? exitCodes.usage : exitCodes.failed;
    }
    console.error(`gantry: ${error instanceof Error ? error.message : String(error)}`);
    return exitCodes.failed;
  }
}
