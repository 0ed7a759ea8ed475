// The admin CLI's command shape. Each area registers its commands in its own module
// (identity.ts, ...); local/admin.ts lists the modules.
export type Options = Record<string, string | true>;

export interface AdminCommand {
  /** Words that select it, e.g. "token issue". */
  name: string;
  usage: string;
  run(options: Options): Promise<unknown>;
}

/** A mistake of the operator's: printed as is, exit code 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
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
  return v;
}
