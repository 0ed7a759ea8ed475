// application/x-www-form-urlencoded request bodies (the token, revocation and page forms): UTF-8
// only, bounded, and each parameter at most once (RFC 6749 §3.2 — a repeated one is ambiguous).
import { wordList } from '../domain/word-lists.ts';

const FORM_CONTENT_TYPE = 'application/x-www-form-urlencoded';
const MAX_FORM_BYTES = 64 * 1024;

function isFormContentType(contentType: string | undefined): boolean {
  if (!contentType) return false;
  const [type, ...params] = contentType.split(';').map((p) => p.trim().toLowerCase());
  if (type !== FORM_CONTENT_TYPE) return false;
  // A form is UTF-8; a declared other charset would be decoded wrongly, so it is refused.
  const charset = params
    .find((p) => p.startsWith('charset='))
    ?.slice('charset='.length)
    .replace(/"/g, '');
  return charset === undefined || charset === 'utf-8' || charset === 'utf8';
}

type FormParse = { ok: true; form: Map<string, string> } | { ok: false; problem: 'contentType' | 'tooLarge' | 'repeated'; detail: string };

/** The form's parameters, or which rule it broke (worded for the client). */
export function parseForm(contentType: string | undefined, body: string | undefined): FormParse {
  const text = body ?? '';
  if (!isFormContentType(contentType)) return { ok: false, problem: 'contentType', detail: `The request must be sent as ${FORM_CONTENT_TYPE}.` };
  if (Buffer.byteLength(text) > MAX_FORM_BYTES) return { ok: false, problem: 'tooLarge', detail: `The request body is larger than ${MAX_FORM_BYTES} bytes.` };
  const form = new Map<string, string>();
  for (const [name, value] of new URLSearchParams(text)) {
    if (form.has(name)) return { ok: false, problem: 'repeated', detail: `The parameter '${name.slice(0, 64)}' is repeated; each parameter may appear once.` };
    form.set(name, value);
  }
  return { ok: true, form };
}

/**
 * Why an endpoint that reads its parameters from the form refuses the request's query string, or
 * undefined when it has none: a parameter sent there (a second grant_type, a stray name) would
 * otherwise be silently ignored. The endpoints advertise their URLs without a query (RFC 8414), so a
 * client that follows them sends none.
 */
export function queryStringProblem(names: readonly string[]): string | undefined {
  if (names.length === 0) return undefined;
  const named = names.slice(0, 5).map((n) => `'${n.slice(0, 64)}'`);
  return `This endpoint reads its parameters from the form body only; the query string sends ${wordList(named, 'and')}.`;
}
