// Request input through its schema (./schemas/*): a failed parse becomes the domain's
// InvalidInput, located by a JSON pointer (bodies) or a parameter name (query and path), with a
// detail that says which value, what was expected and what came. Before a body meets its schema,
// its raw JSON is checked once for what a schema cannot see (rawJsonProblem).
import type * as z from 'zod/mini';
import { clip } from './clip.ts';
import { InvalidInput, parameter, pointer, type InputLocation, type Path } from './errors.ts';
import { isUuid } from './schemas/common.ts';

/** A JSON object: not null, not an array. */
export const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export { isUuid };

/** The lower-case id when `v` is a uuid (ids are stored so, ./schemas/common.ts `Uuid`), for input not yet validated. */
export const uuidOf = (v: unknown): string | undefined => (isUuid(v) ? v.toLowerCase() : undefined);

/** Refuses a value of the body at `path` (the rules beyond the schema: workspace data, hierarchy). */
export function invalid(path: Path, detail: string): never {
  throw new InvalidInput(detail, pointer(path));
}

/** Where a value came from: the body, the query string or the path. */
type InputPart = 'body' | 'query' | 'path';

/** A lone UTF-16 surrogate: a high one not followed by a low one, or a low one not after a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const isText = (s: string) => !LONE_SURROGATE.test(s);

/** A value as a detail quotes it: short, and never more than a glimpse of a client's text. */
function describeValue(v: unknown): string {
  if (v === null) return 'null';
  if (typeof v === 'string') return `'${clip(v)}'`;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'object') return 'an object';
  return typeof v;
}

const quoteList = (values: readonly unknown[]) => values.map((v) => (typeof v === 'string' ? `'${v}'` : String(v))).join(', ');

const EXPECTED: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  boolean: 'a boolean',
  object: 'an object',
  array: 'an array',
  null: 'null',
  record: 'an object',
};

const FORMATS: Record<string, string> = {
  uuid: 'a UUID',
  date: 'a date (YYYY-MM-DD)',
  datetime: 'a date and time (ISO 8601)',
  'idn-email': 'an e-mail address',
  hostname: 'a domain name',
  url: 'an absolute URL',
  handle: 'lowercase letters and digits only',
};

/** zod/mini carries no locale: an issue's message is this constant unless its schema gave its own words. */
const ZOD_DEFAULT_MESSAGE = 'Invalid input';

/**
 * A parse's own error map, which outranks the global one: zod classic (the MCP SDK's) installs its
 * English locale globally on its first schema, and issues would then carry its messages instead of
 * the constant phrase() recognizes. A schema's own words still win over this map.
 */
export const SERVICE_WORDS = { error: () => ZOD_DEFAULT_MESSAGE };

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let v = root;
  for (const key of path) {
    if (v === null || typeof v !== 'object' || !Object.hasOwn(v, key)) return undefined;
    v = (v as Record<PropertyKey, unknown>)[key];
  }
  return v;
}

/** What was wrong, as the end of a sentence whose subject is the value ("must be a string (got 3)"). */
function phrase(issue: z.core.$ZodIssue, input: unknown): string {
  const got = input === undefined ? '' : ` (got ${describeValue(input)})`;
  if (issue.message !== ZOD_DEFAULT_MESSAGE) return `${issue.message}${issue.code === 'custom' ? '' : got}`;
  switch (issue.code) {
    case 'invalid_type':
      if (input === undefined) return 'is required';
      return `must be ${EXPECTED[issue.expected] ?? issue.expected}${got}`;
    case 'too_small': {
      const min = Number(issue.minimum);
      if (issue.origin === 'string') return min === 1 ? 'must not be empty' : `must be at least ${min} characters long${got}`;
      if (issue.origin === 'array' || issue.origin === 'set') return min === 1 ? 'must not be empty' : `must have at least ${min} items`;
      return `must be ${issue.inclusive ? 'at least' : 'greater than'} ${min}${got}`;
    }
    case 'too_big': {
      const max = Number(issue.maximum);
      // Characters as the check counts them: code points (an emoji is one, though two UTF-16 units).
      if (issue.origin === 'string') return `must be at most ${max} characters long (got ${typeof input === 'string' ? [...input].length : '?'})`;
      if (issue.origin === 'array' || issue.origin === 'set') return `must have at most ${max} items (got ${Array.isArray(input) ? input.length : '?'})`;
      return `must be ${issue.inclusive ? 'at most' : 'less than'} ${max}${got}`;
    }
    case 'invalid_format':
      return `must be ${FORMATS[issue.format] ?? `in the format ${issue.format}`}${got}`;
    case 'invalid_value':
      return issue.values.length === 1 ? `must be ${quoteList(issue.values)}${got}` : `must be one of ${quoteList(issue.values)}${got}`;
    case 'invalid_union': {
      // A discriminated union whose discriminator matched no option names the options.
      const { note, options } = issue as { note?: string; options?: unknown[] };
      if (note === 'No matching discriminator' && options) return `must be one of ${quoteList(options)}${got}`;
      return `does not match any of the forms it may take${got}`;
    }
    default:
      return `is not valid${got}`;
  }
}

/** A detail as a reason to count refusals by: without the value it quotes (phrase's " (got …)") and its full stop, the same words for every value one rule refuses. */
export const withoutValue = (detail: string) => detail.replace(/( \(got [\s\S]*\))?\.$/, '');

function subject(part: InputPart, path: readonly PropertyKey[]): string {
  if (part === 'query') return `Query parameter '${String(path[0])}'`;
  if (part === 'path') return `Path parameter '${String(path[0])}'`;
  return path.length ? `'${pointer(path as Path).pointer}'` : 'The body';
}

/** An object in the body, as a detail names it. */
const container = (path: readonly PropertyKey[]) => (path.length ? `'${pointer(path as Path).pointer}'` : 'the body');

function location(part: InputPart, path: readonly PropertyKey[]): InputLocation {
  return part === 'body' ? pointer(path as Path) : parameter(String(path[0]));
}

/**
 * The issue to report: a union none of whose forms fit is reported inside the one form whose
 * refusals all lie deeper (the value had that form's shape: `['name', 7]` fails at its item 1).
 */
function innermostIssue(issue: z.core.$ZodIssue): z.core.$ZodIssue {
  if (issue.code !== 'invalid_union') return issue;
  const inside = issue.errors.filter((errors) => errors.length > 0 && errors.every((e) => e.path.length > 0));
  if (inside.length !== 1) return issue;
  const first = inside[0]![0]!;
  return innermostIssue({ ...first, path: [...issue.path, ...first.path] });
}

/**
 * The first issue of a failed parse as InvalidInput. `root` is what was parsed (the detail quotes
 * the offending value from it); `allowed` names the parameters an operation takes, for the detail
 * of an unknown one.
 */
function invalidInputOf(reported: z.core.$ZodIssue, part: InputPart, root: unknown, allowed?: readonly string[]): InvalidInput {
  const issue = innermostIssue(reported);
  const path = issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p));
  if (issue.code === 'unrecognized_keys') {
    const key = issue.keys[0]!;
    if (part === 'body') {
      return new InvalidInput(`Unknown property '${clip(key)}' in ${container(path)}.`, pointer([...path, key]));
    }
    const takes = allowed?.length ? `this operation takes ${allowed.join(', ')}` : 'this operation takes none';
    return new InvalidInput(`Unknown ${part} parameter '${clip(key)}'; ${takes}.`, parameter(clip(key)));
  }
  // A schema's own refusal written as a whole sentence (it ends with a full stop) is the detail as it stands.
  if (issue.code === 'custom' && issue.message.endsWith('.')) return new InvalidInput(issue.message, location(part, path));
  return new InvalidInput(`${subject(part, path)} ${phrase(issue, valueAt(root, path))}.`, location(part, path));
}

/** `value` through `schema`: its output, or InvalidInput for the first issue. */
export function parseInput<S extends z.ZodMiniType>(schema: S, value: unknown, part: InputPart, allowed?: readonly string[]): z.output<S> {
  const result = schema.safeParse(value, SERVICE_WORDS);
  if (!result.success) {
    // An unknown key first: it says the shape is wrong, which is what a client needs to hear before a missing field.
    const issues = result.error.issues;
    throw invalidInputOf(issues.find((i) => i.code === 'unrecognized_keys') ?? issues[0]!, part, value, allowed);
  }
  return result.data;
}

/** What `schema` refuses in `value`, in the API's words (InvalidInput's detail); undefined when it takes it. */
export function inputProblem(schema: z.ZodMiniType, value: unknown, part: InputPart = 'body'): string | undefined {
  try {
    parseInput(schema, value, part);
    return undefined;
  } catch (err) {
    if (!(err instanceof InvalidInput)) throw err;
    return err.detail;
  }
}

/**
 * What a schema cannot see in parsed JSON: a `__proto__` key (zod drops it from records and loose
 * objects, and an assignment of it reaches Object.prototype) and a lone surrogate in a key or a
 * string (a valid JSON escape, but not text). The first one found, or undefined. Iterative: a body
 * nested deeper than the call stack is still walked.
 */
export function rawJsonProblem(value: unknown): InvalidInput | undefined {
  // Nodes keep their parent, not their path: a path is built only for the problem reported.
  interface Node {
    v: unknown;
    key: string | number | undefined;
    parent: Node | undefined;
  }
  const pathOf = (node: Node | undefined): Path => {
    const path: Array<string | number> = [];
    for (let n = node; n?.key !== undefined; n = n.parent) path.push(n.key);
    return path.reverse();
  };
  const notText = (where: string) => `${where} holds a lone UTF-16 surrogate, which is not text.`;
  const stack: Node[] = [{ v: value, key: undefined, parent: undefined }];
  for (let node = stack.pop(); node; node = stack.pop()) {
    const v = node.v;
    if (typeof v === 'string') {
      if (!isText(v)) return new InvalidInput(notText(subject('body', pathOf(node))), pointer(pathOf(node)));
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ v: v[i], key: i, parent: node });
    } else if (v !== null && typeof v === 'object') {
      const keys = Object.keys(v);
      for (const key of keys) {
        const where = () => container(pathOf(node));
        if (key === '__proto__') return new InvalidInput(`The property name '__proto__' is not allowed (in ${where()}).`, pointer([...pathOf(node), key]));
        if (!isText(key)) return new InvalidInput(notText(`A property name in ${where()}`), pointer([...pathOf(node), key]));
      }
      for (let i = keys.length - 1; i >= 0; i--) stack.push({ v: (v as Record<string, unknown>)[keys[i]!], key: keys[i]!, parent: node });
    }
  }
  return undefined;
}

/** What a schema cannot see in a JSON text and its parse (lostInParsing, rawJsonProblem): the first problem, or undefined. */
export const parsedJsonProblem = (text: string, value: unknown): InvalidInput | undefined => lostInParsing(text) ?? rawJsonProblem(value);

/**
 * What JSON.parse drops from `text` without a word, which must be valid JSON (JSON.parse took it):
 *  - a member name given twice in one object: JSON.parse keeps the last value, and another reader of
 *    the same text may keep the first (RFC 8259 §4: names SHOULD be unique); names are compared
 *    decoded, so `"name"` and `"n\u0061me"` are the same member;
 *  - a number too small to be represented, which JSON.parse reads as 0 (1e-400).
 * The first one found, as a refusal pointing at it, or undefined. One pass over the text.
 */
export function lostInParsing(text: string): InvalidInput | undefined {
  interface Frame {
    /** An object's names so far; undefined for an array. */
    names: Set<string> | undefined;
    /** Where the value being read sits in this container: its name, or its index. */
    at: string | number;
    /** In an object: whether the next string is a name. */
    expectName: boolean;
  }
  const stack: Frame[] = [];
  const pathTo = (): Path => stack.slice(0, -1).map((f) => f.at);
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      let end = text.indexOf('"', i + 1);
      // A quote ends the string only after an even run of backslashes.
      for (;;) {
        let slashes = 0;
        for (let k = end - 1; text.charCodeAt(k) === 0x5c; k--) slashes++;
        if (slashes % 2 === 0) break;
        end = text.indexOf('"', end + 1);
      }
      const top = stack.at(-1);
      if (top?.names && top.expectName) {
        const raw = text.slice(i + 1, end);
        const name = raw.includes('\\') ? (JSON.parse(`"${raw}"`) as string) : raw;
        if (top.names.has(name)) {
          const path = [...pathTo(), name];
          return new InvalidInput(
            `${subject('body', path.slice(0, -1))} gives the member '${name}' more than once; send each member once (a JSON reader keeps only one of them).`,
            pointer(path),
          );
        }
        top.names.add(name);
        top.at = name;
        top.expectName = false;
      }
      i = end;
    } else if (c === 0x7b /* { */) {
      stack.push({ names: new Set(), at: '', expectName: true });
    } else if (c === 0x5b /* [ */) {
      stack.push({ names: undefined, at: 0, expectName: false });
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      stack.pop();
    } else if (c === 0x2c /* , */) {
      const top = stack.at(-1)!;
      if (top.names) top.expectName = true;
      else top.at = (top.at as number) + 1;
    } else if (c === 0x2d /* - */ || (c >= 0x30 && c <= 0x39)) {
      let end = i + 1;
      while (end < text.length && NUMBER_CHARS.test(text[end]!)) end++;
      const literal = text.slice(i, end);
      if (Number(literal) === 0 && /[1-9]/.test(literal.split(/[eE]/)[0]!)) {
        const top = stack.at(-1);
        const path = top ? [...pathTo(), top.at] : [];
        return new InvalidInput(
          `${subject('body', path)} is the number ${literal.slice(0, 40)}, which is too small to be represented: it would read as 0.`,
          pointer(path),
        );
      }
      i = end - 1;
    }
  }
  return undefined;
}

/** The characters of a JSON number after its first. */
const NUMBER_CHARS = /[0-9eE+.-]/;
