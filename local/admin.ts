// Admin CLI: `npm run --silent admin -- <command> [--option value ...]`. One JSON object on stdout;
// on failure a readable message on stderr and a non-zero exit. Targets the local table (facts from
// .local/dev.json) unless --table names a deployed one (region and credentials from the AWS env).
import { readFileSync } from 'node:fs';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { MoveAbandoned } from '#lib/store/move/runs.ts';
import { appCommands } from './admin/apps.ts';
import { UsageError, type AdminCommand, type OptionKinds, type Options } from './admin/command.ts';
import { fieldCommands } from './admin/fields.ts';
import { identityCommands } from './admin/identity.ts';
import { indexCommands } from './admin/indexes.ts';
import { moveCommands } from './admin/move.ts';
import { scoreCommands } from './admin/score.ts';
import { DEV_FILE, LOCAL_TABLE, SERVICE_KEY_FILE, type DevFacts } from './paths.ts';

const COMMANDS: AdminCommand[] = [...identityCommands, ...fieldCommands, ...appCommands, ...scoreCommands, ...indexCommands, ...moveCommands];

/** Options every command takes: the target table and, deployed, the KMS key that signs and the service secret. */
const TARGET_OPTIONS: OptionKinds = { table: 'value', 'kms-key-id': 'value', 'secret-id': 'value' };

/** The command words and the options (`--name value`, `--name=value`, `--flag`); an option no command knows is refused. */
function parseCommandLine(argv: string[]): { words: string[]; options: Options } {
  const known: NonNullable<ParseArgsConfig['options']> = {};
  for (const kinds of [TARGET_OPTIONS, ...COMMANDS.map((c) => c.options)]) {
    for (const [name, kind] of Object.entries(kinds))
      known[name] = { type: kind === 'flag' ? 'boolean' : 'string', ...(kind === 'values' ? { multiple: true } : {}) };
  }
  const { values, positionals } = parseArgs({ args: argv, options: known, allowPositionals: true, strict: true });
  return { words: positionals, options: values as Options };
}

/**
 * What signs and seals against a deployed table (docs/operations.md §4): the KMS key (stack output
 * ServiceKeyArn; kms:Sign) and the service secret (ServiceSecretArn; secretsmanager:GetSecretValue,
 * which a restore of a file holding webhooks seals their new signing secrets with), by option and
 * by environment variable.
 */
const DEPLOYED_SOURCES = { 'kms-key-id': 'SERVICE_KMS_KEY_ID', 'secret-id': 'SERVICE_SECRET_ID' } as const;

function configureTarget(options: Options) {
  if (typeof options.table === 'string') {
    process.env.TABLE_NAME = options.table;
    delete process.env.DYNAMODB_ENDPOINT;
    // A deployed stack's key and secret, each from its option or its environment variable; either
    // one named, the local key file (which would win over both) is not used.
    for (const [option, variable] of Object.entries(DEPLOYED_SOURCES)) {
      const value = typeof options[option] === 'string' ? options[option] : process.env[variable];
      if (value) {
        process.env[variable] = value;
        delete process.env.SERVICE_KEY_FILE;
      }
    }
    return;
  }
  // The key and the secret of a deployed stack: against the local table, the local key file serves both.
  const deployedOnly = Object.keys(DEPLOYED_SOURCES).filter((name) => name in options);
  if (deployedOnly.length)
    throw new UsageError(
      `${deployedOnly.map((n) => `--${n}`).join(' and ')} ${deployedOnly.length === 1 ? 'goes' : 'go'} with --table (a deployed table); the local table's key file (.local/service-key.json) serves both`,
    );
  let facts: Partial<DevFacts> = {};
  try {
    facts = JSON.parse(readFileSync(DEV_FILE, 'utf8')) as DevFacts;
  } catch {
    // not started yet: fall back to the defaults npm start uses
  }
  process.env.DYNAMODB_ENDPOINT ||= facts.dynamodbEndpoint ?? 'http://127.0.0.1:8000';
  process.env.TABLE_NAME ||= facts.tableName ?? LOCAL_TABLE;
  process.env.SERVICE_KEY_FILE ||= facts.serviceKeyFile ?? SERVICE_KEY_FILE;
  process.env.PUBLIC_APP_URL ||= facts.appUrl ?? 'http://localhost:3000';
  // The local stack's server takes webhook receivers on http and loopback (local/start.ts): the CLI
  // holds export and restore files to the rule that table's subscriptions were created under.
  process.env.WEBHOOKS_ALLOW_LOOPBACK ??= '1';
}

function usage(): string {
  return ['Usage: npm run --silent admin -- <command> [--table T [--kms-key-id K] [--secret-id S]]', ...COMMANDS.map((c) => `  ${c.usage}`)].join('\n');
}

async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseCommandLine(argv);
  } catch (err) {
    // node:util's own wording says which option and why (unknown, missing or ambiguous value).
    console.error(`${(err as Error).message}\n${usage()}`);
    return 2;
  }
  const { words, options } = parsed;
  const command = COMMANDS.filter((c) => c.name === words.slice(0, c.name.split(' ').length).join(' ')).sort((a, b) => b.name.length - a.name.length)[0];
  if (!command) {
    console.error(words.length ? `Unknown command: ${words.join(' ')}\n${usage()}` : usage());
    return 2;
  }
  // A word beyond the command's own is a value that lost its quotes (--name Two Words) or a usage
  // line pasted as it is: doing the command without it would do something else than was asked.
  const extra = words.slice(command.name.split(' ').length);
  if (extra.length > 0) {
    console.error(
      `${command.name}: ${extra.map((w) => `'${w}'`).join(' ')} ${extra.length === 1 ? 'is' : 'are'} not part of the command: quote a value that holds spaces (--name "Two Words")\n  ${command.usage}`,
    );
    return 2;
  }
  const foreign = Object.keys(options).filter((name) => !(name in command.options) && !(name in TARGET_OPTIONS));
  if (foreign.length > 0) {
    console.error(`${command.name}: ${foreign.map((n) => `--${n}`).join(', ')} is not an option of this command\n  ${command.usage}`);
    return 2;
  }
  try {
    configureTarget(options);
    const result = await command.run(options);
    process.stdout.write(JSON.stringify(result ?? {}) + '\n');
    return 0;
  } catch (err) {
    // A move being abandoned is not continued: the operator's own --abandon said so.
    if (err instanceof UsageError || err instanceof MoveAbandoned) {
      console.error(`${command.name}: ${err.message}`);
      return 2;
    }
    const e = err as Error & { code?: string; name?: string };
    if (e.name === 'ResourceNotFoundException') {
      console.error(
        `${command.name}: table ${process.env.TABLE_NAME} not found${process.env.DYNAMODB_ENDPOINT ? ` at ${process.env.DYNAMODB_ENDPOINT}` : ''}.`,
      );
    } else if (e.code === 'ECONNREFUSED' || /ECONNREFUSED/.test(String(e.message)) || e.name === 'TimeoutError') {
      console.error(
        `${command.name}: DynamoDB is not reachable at ${process.env.DYNAMODB_ENDPOINT}; start the local stack with \`npm start\` (or pass --table for a deployed one).`,
      );
    } else {
      console.error(`${command.name} failed: ${e.message}`);
    }
    return 1;
  }
}

void main(process.argv.slice(2)).then((code) => process.exit(code));
