// Contract tests: every response a test receives is checked against our own OpenAPI document
// (docs/openapi.json, which test/http/openapi.test.ts holds equal to the generator's output). The
// status must be one the operation declares and the body must match its schema (ajv, JSON Schema
// 2020-12 as OpenAPI 3.1 uses it, formats included), compiled once per test process. What no route
// matches is the gateway's own answer: 404 route.notFound in the envelope. A mismatch throws, so
// the test that made the request fails, with the operation, the status and what differs.
import { readFileSync } from 'node:fs';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';
import { EMAIL_PATTERN } from '#lib/domain/schemas/common.ts';
import { matchRoute, PREFLIGHT_PATH, refusedWith } from '#lib/routes.ts';
import { summarize } from '../compat/validate.ts';

type Json = Record<string, any>;

const DOCUMENT_ID = 'https://pm-api.invalid/openapi.json';

let document: Json | undefined;
let ajv: Ajv2020 | undefined;
const validators = new Map<string, ValidateFunction>();

function load(): { doc: Json; ajv: Ajv2020 } {
  if (!document || !ajv) {
    document = JSON.parse(readFileSync(new URL('../../docs/openapi.json', import.meta.url), 'utf8')) as Json;
    // OpenAPI's `discriminator` (with its `mapping`) is an annotation here: ajv's own support takes no
    // mapping, and each branch's `type` enum already selects the branch.
    ajv = new Ajv2020({ allErrors: true, strict: true, strictTypes: false, strictRequired: false });
    // ajv-formats is CommonJS: its plugin is both module.exports and its `default`.
    ajvFormats.default(ajv);
    // ajv-formats has no idn-email (RFC 6531): the service's own rule, which the document also states as a pattern.
    ajv.addFormat('idn-email', EMAIL_PATTERN);
    // The document's own keywords: annotations to a validator.
    ajv.addVocabulary(['paths', 'components', 'discriminator']);
    ajv.addSchema({ $id: DOCUMENT_ID, paths: document.paths, components: document.components });
  }
  return { doc: document, ajv };
}

const escape = (token: string) => token.replace(/~/g, '~0').replace(/\//g, '~1');

function validatorAt(pointer: string): ValidateFunction {
  let v = validators.get(pointer);
  if (!v) {
    v = load().ajv.compile({ $ref: `${DOCUMENT_ID}#${pointer.split('/').map(encodeURIComponent).join('/')}` });
    validators.set(pointer, v);
  }
  return v;
}

class ContractViolation extends Error {}

interface ReceivedResponse {
  method: string;
  /** The request target: path and query, as sent. */
  target: string;
  status: number;
  headers: Headers;
  text: string;
}

/**
 * Throws ContractViolation when a response breaks the document. `doubles`: the handlers are test
 * doubles, so only the pipeline's own answers (errors) are the service's and checked.
 */
export function checkResponse(res: ReceivedResponse, options: { doubles?: boolean } = {}): void {
  const { doc } = load();
  const path = res.target.split('?')[0]!;
  const match = matchRoute(res.method, path);
  const where = match ? `${match.route.operationId} (${res.method} ${match.route.path})` : `${res.method} ${path} (no route)`;
  const fail = (what: string) => {
    throw new ContractViolation(`Contract: ${where} answered ${res.status}, which ${what} (docs/openapi.json). Body: ${res.text.slice(0, 500)}`);
  };
  if (!res.headers.get('x-request-id')) fail('carries no X-Request-Id');
  if (options.doubles && res.status < 400) return;

  let pointer: string;
  const allow = match ? undefined : refusedWith(res.method, path);
  if (allow) {
    if (res.status !== 405 || res.headers.get('allow') !== allow)
      fail(`is not the 405 request.methodNotAllowed with Allow: ${allow} the gateway answers for a method its path does not take`);
    pointer = '/components/schemas/Error405';
  } else if (!match) {
    if (res.status !== 404) fail('is not the 404 route.notFound the gateway answers for an unknown route');
    pointer = '/components/schemas/Error404';
  } else if (match.route.path === PREFLIGHT_PATH) {
    // The CORS preflight is not an operation of the document: 204 without a body, or the envelope.
    if (res.status === 204) {
      if (res.text !== '') fail('is a preflight answer with a body');
      return;
    }
    pointer = `/components/schemas/Error${res.status}`;
    if (!doc.components?.schemas?.[`Error${res.status}`]) fail('is not a status of the error envelope');
  } else {
    const responsesAt = `/paths/${escape(match.route.path)}/${res.method.toLowerCase()}/responses`;
    const responses = doc.paths[match.route.path]?.[res.method.toLowerCase()]?.responses as Json | undefined;
    const declared = responses?.[String(res.status)] as Json | undefined;
    if (!declared) fail(`is not a status the operation declares (it declares ${Object.keys(responses ?? {}).join(', ')})`);
    if (!declared!.content) {
      if (res.text !== '') fail('declares no body, but one came');
      return;
    }
    if ((declared!.content as Json)['text/html']) {
      if (!/^text\/html/.test(res.headers.get('content-type') ?? ''))
        fail(`is declared as a page but came as ${res.headers.get('content-type') ?? 'no content type'}`);
      return;
    }
    pointer = `${responsesAt}/${res.status}/content/application~1json/schema`;
  }
  // A response to HEAD has no body (RFC 9110 §9.3.2).
  if (res.method === 'HEAD' && res.text === '') return;
  if (!/^application\/json/.test(res.headers.get('content-type') ?? ''))
    fail(`is declared as JSON but came as ${res.headers.get('content-type') ?? 'no content type'}`);
  let body: unknown;
  try {
    body = JSON.parse(res.text);
  } catch {
    fail('is declared as JSON but is not JSON');
  }
  const validate = validatorAt(pointer);
  if (!validate(body)) fail(`does not match its schema at ${pointer}: ${summarize(validate.errors).join('; ')}`);
  const edgeCode = allow ? 'request.methodNotAllowed' : 'route.notFound';
  if (!match && (body as Json).errors?.[0]?.code !== edgeCode) fail(`is not ${edgeCode}`);
}

/** A fetch that checks every response it returns (for openapi-fetch clients). */
export function contractFetch(options: { doubles?: boolean } = {}): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const res = await fetch(request);
    const url = new URL(request.url);
    checkResponse(
      { method: request.method, target: url.pathname + url.search, status: res.status, headers: res.headers, text: await res.clone().text() },
      options,
    );
    return res;
  };
}
