// Productboard's published OpenAPI documents (v2), read from the shared reference folder that CI
// keeps beside the clone. Each file is JSON after a few `#` comment lines (so it is YAML too).
// Tests only: nothing at runtime reads these.
import { readFileSync } from 'node:fs';

export const DOCUMENT_NAMES = ['entities', 'notes', 'members', 'customer-scores', 'teams', 'webhooks'] as const;
export type DocumentName = (typeof DOCUMENT_NAMES)[number];

export const documentsDir = new URL('../../../shared/reference/productboard-openapi/', import.meta.url);
const documentUrl = (name: DocumentName) => new URL(`${name}.yaml`, documentsDir);

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

const cache = new Map<DocumentName, JsonObject>();

/** The parsed document (shared and frozen: patch a copy, see test/compat/validate.ts). */
export function loadDocument(name: DocumentName): JsonObject {
  let doc = cache.get(name);
  if (!doc) {
    const text = readFileSync(documentUrl(name), 'utf8');
    doc = deepFreeze(JSON.parse(text.replace(/^(#[^\n]*\n)+/, '')) as JsonObject);
    cache.set(name, doc);
  }
  return doc;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

/** Keys that only carry Productboard's prose or samples: dropped before types are generated from a document. */
const PROSE_KEYS = new Set(['description', 'summary', 'example', 'examples', 'x-readme', 'termsOfService', 'contact']);

/** Objects whose keys are names (a property may be called "description"), never prose. */
const NAME_MAPS = new Set([
  'properties',
  'patternProperties',
  '$defs',
  'schemas',
  'responses',
  'parameters',
  'requestBodies',
  'paths',
  'content',
  'mapping',
  'scopes',
]);

/**
 * The document's shapes without its prose: the committed generated types must not carry
 * Productboard's descriptions, only names, types, enums and required lists.
 */
export function withoutProse(value: Json, isNameMap = false): Json {
  if (Array.isArray(value)) return value.map((v) => withoutProse(v));
  if (value !== null && typeof value === 'object') {
    const out: JsonObject = {};
    for (const [k, v] of Object.entries(value)) {
      if (!isNameMap && PROSE_KEYS.has(k)) continue;
      out[k] = withoutProse(v, !isNameMap && NAME_MAPS.has(k));
    }
    return out;
  }
  return value;
}

type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

interface OperationRef {
  document: DocumentName;
  operationId: string;
  method: HttpMethod;
  /** Path template as Productboard writes it, under its server URL (`/entities/{id}`). */
  path: string;
  responses: JsonObject;
}

const METHODS: readonly HttpMethod[] = ['get', 'post', 'put', 'patch', 'delete'];

/** Every operation of the four documents, by operationId (ids are unique across them). */
export function operations(): Map<string, OperationRef> {
  const out = new Map<string, OperationRef>();
  for (const document of DOCUMENT_NAMES) {
    const paths = loadDocument(document).paths as JsonObject;
    for (const [path, item] of Object.entries(paths)) {
      for (const method of METHODS) {
        const op = (item as JsonObject)[method] as JsonObject | undefined;
        if (!op) continue;
        const operationId = op.operationId as string;
        if (out.has(operationId)) throw new Error(`operationId ${operationId} appears twice in Productboard's documents`);
        out.set(operationId, { document, operationId, method, path, responses: op.responses as JsonObject });
      }
    }
  }
  return out;
}

export function operation(operationId: string): OperationRef {
  const op = operations().get(operationId);
  if (!op) throw new Error(`Productboard's documents define no operation ${operationId}`);
  return op;
}

/** RFC 6901 escaping of one reference token. */
const escapeToken = (token: string) => token.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * JSON Pointer (into the operation's document) of the JSON schema of one response, following the
 * response's `$ref` to `#/components/responses/...` when it has one. Undefined when Productboard
 * gives that status no JSON body (204) — and throws when the status is not in the definition.
 */
export function responseSchemaPointer(op: OperationRef, status: number): string | undefined {
  const response = op.responses[String(status)] as JsonObject | undefined;
  if (!response) throw new Error(`${op.operationId} defines no ${status} response`);
  let base = `/paths/${escapeToken(op.path)}/${op.method}/responses/${status}`;
  let target = response;
  if (typeof response.$ref === 'string') {
    base = response.$ref.slice(1);
    target = resolvePointer(loadDocument(op.document), base) as JsonObject;
  }
  const content = target.content as JsonObject | undefined;
  if (!content?.['application/json']) return undefined;
  return `${base}/content/application~1json/schema`;
}

export function resolvePointer(doc: Json, pointer: string): Json | undefined {
  if (pointer === '') return doc;
  let node: Json | undefined = doc;
  for (const raw of pointer.split('/').slice(1)) {
    const token = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (node === null || typeof node !== 'object') return undefined;
    node = Array.isArray(node) ? node[Number(token)] : node[token];
  }
  return node;
}
