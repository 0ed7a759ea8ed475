// What one compatibility check records: each failure as one stable line (no ids, no times, no
// random e-mails), so that test/compat/baseline.json can hold today's failures exactly.
import { validateResponse } from './validate.ts';

/** Thrown to end a check whose next steps depend on what just failed. */
export class StopCheck extends Error {}

/** What an openapi-fetch call resolves to. */
interface Reply<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

interface ExpectedError {
  status: number;
  code: string;
  /** `source.parameter` the envelope must name. */
  parameter?: string;
  /** `source.pointer` the envelope must name. */
  pointer?: string;
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
const TIME = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z/g;

export class Probe {
  /** What failed, besides schema mismatches: statuses, results, setup steps. */
  readonly failures: string[] = [];
  /**
   * Schema mismatches no patch covers, by "<operationId> <status>": a property of the operation's
   * responses rather than of the check, so the suite keeps them per operation.
   */
  readonly mismatches = new Map<string, Set<string>>();
  /** Patches the responses of this check needed. */
  readonly needed = new Set<string>();
  /** Productboard operations this check called, with the statuses they answered. */
  readonly calls = new Set<string>();

  /** `names` maps ids and e-mails of the check's data to readable names; `baseUrl` is shown as {base_url}. */
  constructor(
    private readonly baseUrl: string,
    private readonly names: ReadonlyMap<string, string>,
  ) {}

  /** A line as it is recorded: known ids and e-mails by name, other ids and times masked. */
  stable(line: string): string {
    let out = line.split(this.baseUrl).join('{base_url}');
    for (const [value, name] of this.names) out = out.split(value).join(`<${name}>`);
    return out.replace(UUID, '<id>').replace(TIME, '<time>');
  }

  fail(line: string): void {
    const stable = this.stable(line);
    if (!this.failures.includes(stable)) this.failures.push(stable);
  }

  stop(line: string): never {
    this.fail(line);
    throw new StopCheck(line);
  }

  /** Readable list of ids ("Apple Pay, Google Pay"), sorted. */
  nameList(ids: readonly string[]): string {
    return ids
      .map((id) => this.names.get(id) ?? '<unknown>')
      .sort()
      .join(', ');
  }

  /**
   * A call of Productboard operation `operationId` that must answer `status`. The body is validated
   * against Productboard's (patched) schema for the status received; a wrong status ends the check.
   */
  async reply<T>(operationId: string, status: number, pending: Promise<Reply<T>>): Promise<NonNullable<T>> {
    const { body, received } = await this.receive(pending);
    this.validate(operationId, received, body);
    if (received !== status) this.stop(`${operationId}: ${received} ${brief(body)} (expected ${status})`);
    return body as NonNullable<T>;
  }

  /** A setup step (status only: its own check validates the operation's schema). */
  async setup<T>(operationId: string, status: number, pending: Promise<Reply<T>>): Promise<NonNullable<T>> {
    const { body, received } = await this.receive(pending);
    if (received !== status) this.stop(`setup ${operationId}: ${received} ${brief(body)} (expected ${status})`);
    return body as NonNullable<T>;
  }

  /**
   * A call of one of our extensions (`label` names it: no Productboard operation, so no Productboard
   * schema — the plain call holds it to our own document). A wrong status ends the check.
   */
  async extension<T>(label: string, status: number, pending: Promise<{ status: number; json: T }>): Promise<T> {
    const { status: received, json } = await pending;
    if (received !== status) this.stop(`${label} (extension): ${received} ${brief(json)} (expected ${status})`);
    return json;
  }

  /** A call that must be refused with the spec's error envelope. */
  async refusal(operationId: string, expected: ExpectedError, pending: Promise<Reply<unknown>>): Promise<void> {
    const { body, received } = await this.receive(pending);
    this.validate(operationId, received, body);
    if (received !== expected.status) this.stop(`${operationId}: ${received} ${brief(body)} (expected ${expected.status} ${expected.code})`);
    const error = (body as { errors?: Array<{ code?: string; source?: { parameter?: string; pointer?: string } }> } | undefined)?.errors?.[0];
    if (error?.code !== expected.code) this.fail(`${operationId}: code ${String(error?.code)} (expected ${expected.code})`);
    if (expected.parameter !== undefined && error?.source?.parameter !== expected.parameter) {
      this.fail(`${operationId}: source.parameter ${JSON.stringify(error?.source?.parameter)} (expected ${JSON.stringify(expected.parameter)})`);
    }
    if (expected.pointer !== undefined && error?.source?.pointer !== expected.pointer) {
      this.fail(`${operationId}: source.pointer ${JSON.stringify(error?.source?.pointer)} (expected ${JSON.stringify(expected.pointer)})`);
    }
  }

  /** The ids a list answered must be exactly `expected` (order ignored). */
  same(label: string, actual: readonly string[], expected: readonly string[]): void {
    const a = this.nameList(actual);
    const e = this.nameList(expected);
    if (a !== e || actual.length !== expected.length) this.fail(`${label}: got [${a}], expected [${e}]`);
  }

  /** Deep equality (object key order ignored). */
  equal(label: string, actual: unknown, expected: unknown): void {
    const a = canonical(actual);
    const e = canonical(expected);
    if (a !== e) this.fail(`${label}: got ${a ?? 'nothing'}, expected ${e ?? 'nothing'}`);
  }

  private async receive<T>(pending: Promise<Reply<T>>): Promise<{ body: unknown; received: number }> {
    const { data, error, response } = await pending;
    const body = response.ok ? data : error;
    return { body: body === '' ? undefined : body, received: response.status };
  }

  private validate(operationId: string, status: number, body: unknown): void {
    const key = `${operationId} ${status}`;
    this.calls.add(key);
    const v = validateResponse(operationId, status, body);
    if (v.mismatches.length) {
      const lines = this.mismatches.get(key) ?? new Set<string>();
      for (const line of v.mismatches) lines.add(line);
      this.mismatches.set(key, lines);
    }
    for (const line of v.patchProblems) this.fail(line);
    for (const name of v.needed) this.needed.add(name);
  }
}

/** An error envelope as "code: detail" (a success body is not shown: it holds ids and times). */
function brief(body: unknown): string {
  const e = (body as { errors?: Array<{ code?: string; detail?: string }> } | undefined)?.errors?.[0];
  if (e?.code) return `${e.code}: ${e.detail ?? ''}`;
  return body === undefined ? '(no body)' : '(not an error envelope)';
}

/** JSON with object keys sorted. */
function canonical(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  return JSON.stringify(value, (_k, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v,
  );
}
