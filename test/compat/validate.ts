// Response validation against Productboard's own schemas (ajv, JSON Schema 2020-12 as OpenAPI 3.1
// uses it), with the named patches of test/compat/patches.ts applied to a copy of the document.
//
// A response is validated once with every patch that applies to its operation and status: what
// fails there is a mismatch no patch covers. Then once per applicable patch with all the others
// but that one: if it fails, the patch was needed, and what it adds must lie under the patch's
// declared paths. So each patch is known to be needed (or not) response by response.
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';
import { PATCHES, type SchemaEdit, type SchemaPatch } from './patches.ts';
import { loadDocument, operation, resolvePointer, responseSchemaPointer, type DocumentName, type JsonObject } from './productboard.ts';

// ajv-formats is CommonJS: its plugin is both module.exports and its `default`.
const addFormats = ajvFormats.default;

interface Validation {
  /** Mismatches no patch covers: "/data/links/html: required". */
  mismatches: string[];
  /** Names of the patches this response needed. */
  needed: string[];
  /** A needed patch covering mismatches outside its declared paths. */
  patchProblems: string[];
}

class PatchError extends Error {}

/** Applies one edit to a (mutable) document copy; throws PatchError when the document no longer has what it changes. */
function applyEdit(doc: JsonObject, patch: SchemaPatch, edit: SchemaEdit): void {
  const node = resolvePointer(doc, edit.at);
  if (node === undefined || node === null || typeof node !== 'object' || Array.isArray(node)) {
    throw new PatchError(`Patch ${patch.name}: Productboard's document has no schema at ${edit.at}.`);
  }
  switch (edit.op) {
    case 'unrequire': {
      const required = node.required;
      if (!Array.isArray(required) || !required.includes(edit.property)) {
        throw new PatchError(`Patch ${patch.name}: the schema at ${edit.at} does not require '${edit.property}'.`);
      }
      node.required = required.filter((p) => p !== edit.property);
      return;
    }
    case 'defineProperty': {
      const properties = (node.properties ??= {}) as JsonObject;
      if (properties[edit.property] !== undefined) {
        throw new PatchError(`Patch ${patch.name}: the schema at ${edit.at} already defines '${edit.property}'.`);
      }
      properties[edit.property] = edit.schema;
      return;
    }
    case 'extendEnum': {
      const values = node.enum;
      if (!Array.isArray(values) || edit.values.some((v) => values.includes(v))) {
        throw new PatchError(`Patch ${patch.name}: the schema at ${edit.at} has no enum, or one that has ${edit.values.join(', ')} already.`);
      }
      node.enum = [...values, ...edit.values];
      return;
    }
  }
}

/** A copy of the document with the given patches applied. */
function patchedDocument(document: DocumentName, patches: readonly SchemaPatch[]): JsonObject {
  const doc = structuredClone<JsonObject>(loadDocument(document));
  for (const patch of patches) for (const edit of patch.edits) applyEdit(doc, patch, edit);
  return doc;
}

const ajvs = new Map<string, Ajv2020>();

/** One ajv per (document, patch set): the patched document registered as a schema. */
function ajvFor(document: DocumentName, patches: readonly SchemaPatch[]): { ajv: Ajv2020; id: string } {
  const key = `${document}|${patches
    .map((p) => p.name)
    .sort()
    .join(',')}`;
  const id = `https://productboard.invalid/${document}.json`;
  let ajv = ajvs.get(key);
  if (!ajv) {
    ajv = new Ajv2020({ allErrors: true, strict: true, strictTypes: false, strictRequired: false, discriminator: false });
    addFormats(ajv);
    ajv.addFormat('html', true);
    // OpenAPI's own keywords: annotations to a validator.
    ajv.addVocabulary(['discriminator', 'example', 'paths', 'components']);
    const doc = patchedDocument(document, patches);
    ajv.addSchema({ $id: id, paths: doc.paths!, components: doc.components! });
    ajvs.set(key, ajv);
  }
  return { ajv, id };
}

const validators = new Map<string, ValidateFunction>();

function validatorFor(document: DocumentName, patches: readonly SchemaPatch[], pointer: string): ValidateFunction {
  const key = `${document}|${patches
    .map((p) => p.name)
    .sort()
    .join(',')}|${pointer}`;
  let v = validators.get(key);
  if (!v) {
    const { ajv, id } = ajvFor(document, patches);
    v = ajv.compile({ $ref: `${id}#${pointer.split('/').map(encodeURIComponent).join('/')}` });
    validators.set(key, v);
  }
  return v;
}

/** The patches that apply to one operation's response with one status. */
function patchesFor(document: DocumentName, operationId: string, status: number, patches: readonly SchemaPatch[] = PATCHES): SchemaPatch[] {
  return patches.filter(
    (p) =>
      p.where.documents.includes(document) && (p.where.operations === '*' || p.where.operations.includes(operationId)) && p.where.statuses.includes(status),
  );
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/** A location in the body, stable across runs: array indices as `*`, uuids (custom field ids) as `{uuid}`. */
const stable = (pointer: string) =>
  pointer
    .split('/')
    .map((s) => (/^\d+$/.test(s) ? '*' : s.replace(UUID, '{uuid}')))
    .join('/');

function describe(e: ErrorObject): string {
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'required':
      return 'required';
    case 'additionalProperties':
      return 'not allowed';
    case 'type':
      return `must be ${String(p.type)}`;
    case 'enum':
      return `not one of ${(p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join('|')}`;
    case 'const':
      return `must be ${JSON.stringify(p.allowedValue)}`;
    case 'format':
      return `not a ${String(p.format)}`;
    case 'pattern':
      return 'does not match the pattern';
    case 'anyOf':
    case 'oneOf':
      return `matches none of its ${e.keyword} alternatives`;
    default:
      return `${e.keyword}: ${e.message ?? ''}`;
  }
}

/**
 * One line per mismatch: "<location>: <what>". A failed anyOf/oneOf is reported once, at its
 * location, instead of one line per alternative it tried.
 */
export function summarize(errors: readonly ErrorObject[] | null | undefined): string[] {
  if (!errors?.length) return [];
  const within = (path: string, base: string) => path === base || path.startsWith(`${base}/`);
  const isAlternatives = (e: ErrorObject) => e.keyword === 'anyOf' || e.keyword === 'oneOf';
  const bases = errors.filter(isAlternatives).map((e) => e.instancePath);
  const outermost = bases.filter((b) => !bases.some((other) => other !== b && within(b, other)));
  const lines = new Set<string>();
  for (const e of errors) {
    const base = outermost.find((b) => within(e.instancePath, b));
    if (base !== undefined && !(isAlternatives(e) && e.instancePath === base)) continue;
    const p = e.params as Record<string, unknown>;
    const extra = e.keyword === 'required' ? `/${String(p.missingProperty)}` : e.keyword === 'additionalProperties' ? `/${String(p.additionalProperty)}` : '';
    lines.add(`${stable(e.instancePath + extra) || '/'}: ${describe(e)}`);
  }
  return [...lines].sort();
}

const matchesPath = (location: string, pattern: string) => {
  const loc = location.split('/');
  const pat = pattern.split('/');
  return pat.length <= loc.length && pat.every((seg, i) => seg === '*' || seg === loc[i]);
};

/**
 * Validates a response body of a Productboard operation (`body` undefined: an empty body) with
 * the named patches (test/compat/patches.ts unless given).
 */
export function validateResponse(operationId: string, status: number, body: unknown, known: readonly SchemaPatch[] = PATCHES): Validation {
  const op = operation(operationId);
  if (op.responses[String(status)] === undefined) {
    return { mismatches: [`/: ${status} is not a status Productboard defines for ${operationId}`], needed: [], patchProblems: [] };
  }
  const pointer = responseSchemaPointer(op, status);
  if (pointer === undefined) {
    return { mismatches: body === undefined ? [] : [`/: Productboard defines no body for ${status}`], needed: [], patchProblems: [] };
  }
  if (body === undefined) return { mismatches: ['/: empty body where Productboard defines one'], needed: [], patchProblems: [] };
  const patches = patchesFor(op.document, operationId, status, known);
  const run = (set: readonly SchemaPatch[]) => {
    const v = validatorFor(op.document, set, pointer);
    v(body);
    return summarize(v.errors);
  };
  const mismatches = run(patches);
  const needed: string[] = [];
  const patchProblems: string[] = [];
  for (const patch of patches) {
    const without = run(patches.filter((p) => p !== patch)).filter((line) => !mismatches.includes(line));
    if (without.length === 0) continue;
    needed.push(patch.name);
    for (const line of without) {
      const location = line.slice(0, line.indexOf(': '));
      if (!patch.where.paths.some((p) => matchesPath(location, p))) {
        patchProblems.push(`patch ${patch.name} covers ${line}, outside its declared paths (${patch.where.paths.join(', ')})`);
      }
    }
  }
  return { mismatches, needed, patchProblems };
}

/** Every patch applied to each of its documents: the problems (empty when all apply). */
export function patchApplicationProblems(patches: readonly SchemaPatch[] = PATCHES): string[] {
  const problems: string[] = [];
  for (const patch of patches) {
    for (const document of patch.where.documents) {
      try {
        patchedDocument(document, [patch]);
      } catch (err) {
        problems.push(`${document}: ${(err as Error).message}`);
      }
    }
  }
  return problems;
}
