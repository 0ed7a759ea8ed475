// The token request's form (RFC 6749 §3.2, RFC 7523 §2.1): parsed here, not by the pipeline, so
// that every refusal is an OAuth error. Only the first failing rule is reported.
import { TokenError } from './token-errors.ts';
import { TokenForm } from '../domain/schemas/token.ts';
/** Bound on a token request body: an assertion is a few KiB, so anything near this is not a token request. */
const MAX_TOKEN_REQUEST_BYTES = 64 * 1024;

const FORM = 'application/x-www-form-urlencoded';

function isForm(contentType: string | undefined): boolean {
  if (!contentType) return false;
  const [type, ...params] = contentType.split(';').map((p) => p.trim().toLowerCase());
  if (type !== FORM) return false;
  // A form is UTF-8; a declared other charset would be decoded wrongly, so it is refused.
  const charset = params
    .find((p) => p.startsWith('charset='))
    ?.slice('charset='.length)
    .replace(/"/g, '');
  return charset === undefined || charset === 'utf-8' || charset === 'utf8';
}

export function parseTokenRequest(contentType: string | undefined, rawBody: string | undefined): { assertion: string; scope?: string } {
  const body = rawBody ?? '';
  if (!isForm(contentType)) {
    throw new TokenError('invalid_request', 'content type', `The token request must be sent as ${FORM}.`);
  }
  if (Buffer.byteLength(body) > MAX_TOKEN_REQUEST_BYTES) {
    throw new TokenError('invalid_request', 'body too large', `The token request body is larger than ${MAX_TOKEN_REQUEST_BYTES} bytes.`);
  }
  const form = new Map<string, string>();
  for (const [name, value] of new URLSearchParams(body)) {
    if (form.has(name)) {
      throw new TokenError('invalid_request', 'repeated parameter', `The parameter '${name.slice(0, 64)}' is repeated; each parameter may appear once.`);
    }
    form.set(name, value);
  }
  const parsed = TokenForm.safeParse(Object.fromEntries(form));
  if (parsed.success) return { assertion: parsed.data.assertion, ...(parsed.data.scope !== undefined ? { scope: parsed.data.scope } : {}) };
  // The form's schema says what is wrong; RFC 6749 and the specification say which code that is.
  if (parsed.error.issues.some((i) => i.path[0] === 'grant_type')) {
    throw new TokenError('unsupported_grant_type', 'grant_type missing or unknown');
  }
  throw new TokenError('jwt_bearer_missing_assertion', 'no assertion parameter');
}
