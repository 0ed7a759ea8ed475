// The admin CLI's command shape. Each area registers its commands in its own module
// (identity.ts, ...); local/admin.ts lists the modules.
import { inputProblem } from '#lib/domain/input.ts';
import { Name } from '#lib/domain/schemas/field-values.ts';
import { apiErrorOf } from '#lib/http/error-map.ts';
export type Options = Record<string, string | string[] | true>;

/** How an option is written: a value (`--name value` or `--name=value`), a value that may be repeated, or a flag (`--name`). */
export type OptionKinds = Record<string, 'value' | 'values' | 'flag'>;

export interface AdminCommand {
  /** Words that select it, e.g. "token issue". */
  name: string;
  usage: string;
  /** Every option it reads; any other is refused. */
  options: OptionKinds;
  run(options: Options): Promise<unknown>;
}

/** A mistake of the operator's: printed as is, exit code 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/**
 * Runs `fn`, turning the refusals an API client would get (anything the error envelope answers
 * below 500) into UsageErrors worded as the API words them; other failures pass through.
 */
export async function asUsage<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    const refusal = apiErrorOf(err);
    if (refusal && refusal.status < 500) throw new UsageError(refusal.detail);
    throw err;
  }
}

export function required(options: Options, name: string): string {
  const v = options[name];
  if (typeof v !== 'string' || v === '') throw new UsageError(`--${name} is required`);
  return v;
}

export function optional(options: Options, name: string): string | undefined {
  const v = options[name];
  if (v === true) throw new UsageError(`--${name} needs a value`);
  if (Array.isArray(v)) throw new UsageError(`--${name} may be given once`);
  return v;
}

/** Every value of a repeatable option (`--redirect-uri A --redirect-uri B`). */
export function repeated(options: Options, name: string): string[] {
  const v = options[name];
  return Array.isArray(v) ? v : typeof v === 'string' ? [v] : [];
}

/**
 * `value` of the option `--flag` held to the rule of a name the API keeps (a visible character among at
 * most 255): a workspace, a member or a custom field made here holds no name the API would refuse.
 */
export function checkedName(flag: string, value: string): string {
  const problem = inputProblem(Name, value);
  // The API's words name the body as the subject; here the subject is the option.
  if (problem) throw new UsageError(`--${flag} ${problem.replace(/^The body /, '')}`);
  return value;
}
