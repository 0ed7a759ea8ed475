// Verification of a JWT bearer assertion (RFC 7523) against the application its `iss` names.
// jose checks the RS256 signature and the registered claims; the checks jose does not make follow
// it: `aud` a single string equal to the token URL, finite `exp`/`iat`, a bounded lifetime, `exp`
// strictly in the future, an e-mail `sub` of an active member, the scope intersection, and a
// single-use `jti`. Every refusal is a TokenError with the service specification's code
// (docs/server-to-server.md lists which check gives which).
import { decodeJwt, decodeProtectedHeader, errors as joseErrors, importSPKI, jwtVerify, type JWTPayload } from 'jose';
import { TokenError, type TokenErrorCode } from './token-errors.ts';
import { config } from '../config.ts';
import { grantedScopes } from '../domain/applications.ts';
import { parseScopes, type Scope } from '../domain/scopes.ts';
import { findApplicationByClientId, type Application, type StoredKey } from '../store/applications.ts';
import { useAssertionId } from '../store/assertion-ids.ts';
import { getMemberByEmail, normalizeEmail, type Member } from '../store/members.ts';

/** An assertion may live at most this long (`exp − iat`; docs/server-to-server.md). */
const MAX_ASSERTION_LIFETIME_S = 300;
/** Clock skew tolerated for `iat` and `nbf` (a client clock slightly ahead still works); `exp` gets none. */
const CLOCK_SKEW_S = 30;
/** Far above any real assertion (an RS256 JWT with an 8192-bit signature is under 2 KB). */
const MAX_ASSERTION_LENGTH = 8 * 1024;
const MAX_JTI_LENGTH = 256;
const MAX_KID_LENGTH = 256;
const MAX_SCOPE_LENGTH = 1024;

const COMPACT_JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;
/**
 * Header parameters that make a verifier fetch or trust key material named by the token itself,
 * or change how it is processed. The key is always the one uploaded; such a header is refused
 * before anything else is looked at, so nothing is ever fetched.
 */
const REFUSED_HEADERS = ['crit', 'jku', 'x5u', 'jwk', 'x5c', 'b64', 'zip', 'enc'] as const;

interface VerifiedAssertion {
  application: Application;
  member: Member;
  scopes: Scope[];
}

const fail = (code: TokenErrorCode, reason: string): never => {
  throw new TokenError(code, reason);
};

function checkHeader(assertion: string): { kid: string | undefined } {
  if (assertion.length > MAX_ASSERTION_LENGTH) fail('jwt_bearer_invalid', 'assertion too long');
  if (!COMPACT_JWS.test(assertion)) fail('jwt_bearer_invalid', 'not a compact JWS');
  let header: Record<string, unknown>;
  try {
    header = decodeProtectedHeader(assertion);
  } catch {
    return fail('jwt_bearer_invalid', 'header is not a JSON object');
  }
  const refused = REFUSED_HEADERS.find((name) => Object.hasOwn(header, name));
  if (refused) fail('jwt_bearer_invalid', `header parameter ${refused}`);
  if (header.alg !== 'RS256') fail('jwt_bearer_invalid', `alg ${JSON.stringify(header.alg)?.slice(0, 32)}`);
  const kid = header.kid;
  if (kid !== undefined && (typeof kid !== 'string' || kid.length === 0 || kid.length > MAX_KID_LENGTH)) fail('jwt_bearer_invalid', 'kid not a short string');
  return { kid: kid as string | undefined };
}

/** jose's refusals in the specification's terms; anything that is not jose's is ours and propagates. */
function fromJose(err: unknown): never {
  if (err instanceof joseErrors.JWTExpired) fail('jwt_bearer_expired', `${err.claim} check failed`);
  if (err instanceof joseErrors.JWTClaimValidationFailed) {
    const byClaim: Record<string, TokenErrorCode> = { aud: 'jwt_bearer_invalid_audience', iss: 'jwt_bearer_invalid_issuer', sub: 'jwt_bearer_invalid_user' };
    fail(byClaim[err.claim] ?? 'jwt_bearer_invalid', `${err.claim}: ${err.message}`);
  }
  if (err instanceof joseErrors.JOSEError) fail('jwt_bearer_invalid', err.code);
  throw err;
}

/** Verifies with the key the `kid` names, or else with each of the application's keys in turn. */
async function verifySignatureAndClaims(assertion: string, app: Application, kid: string | undefined): Promise<JWTPayload> {
  const candidates: StoredKey[] = kid === undefined ? app.keys : app.keys.filter((k) => k.id === kid || k.fingerprint === kid);
  if (candidates.length === 0) fail('jwt_bearer_invalid_signature', kid === undefined ? 'application has no keys' : 'kid names no key of the application');
  for (const key of candidates) {
    try {
      const { payload } = await jwtVerify(assertion, await importSPKI(key.pem, 'RS256'), {
        algorithms: ['RS256'],
        issuer: app.clientId,
        audience: config.tokenUrl,
        requiredClaims: ['iss', 'sub', 'aud', 'exp', 'iat'],
        maxTokenAge: MAX_ASSERTION_LIFETIME_S,
        clockTolerance: CLOCK_SKEW_S,
      });
      return payload;
    } catch (err) {
      if (err instanceof joseErrors.JWSSignatureVerificationFailed) continue;
      fromJose(err);
    }
  }
  return fail('jwt_bearer_invalid_signature', 'no key of the application verifies the signature');
}

const isFiniteNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** The checks jose does not make, on a payload whose signature and registered claims it accepted. */
function checkClaims(payload: JWTPayload, nowS: number): { exp: number } {
  if (typeof payload.aud !== 'string' || payload.aud !== config.tokenUrl) fail('jwt_bearer_invalid_audience', 'aud is not the token URL as one string');
  const { exp, iat } = payload;
  // JSON's 1e400 parses to Infinity, which jose accepts as a number.
  if (!isFiniteNumber(exp) || !isFiniteNumber(iat)) return fail('jwt_bearer_invalid', 'exp/iat not finite numbers');
  if (exp <= nowS) fail('jwt_bearer_expired', 'exp not in the future');
  if (exp <= iat) fail('jwt_bearer_invalid', 'exp not after iat');
  if (exp - iat > MAX_ASSERTION_LIFETIME_S) fail('jwt_bearer_invalid', `lifetime over ${MAX_ASSERTION_LIFETIME_S}s`);
  if (iat > nowS + CLOCK_SKEW_S) fail('jwt_bearer_invalid', 'iat in the future');
  return { exp };
}

async function resolveMember(app: Application, sub: unknown): Promise<Member> {
  const email = normalizeEmail(sub);
  if (!email) return fail('jwt_bearer_invalid_user', 'sub is not an e-mail address');
  const member = await getMemberByEmail(app.workspaceId, email);
  if (!member) return fail('jwt_bearer_invalid_user', 'no such member in the application workspace');
  if (!member.active) return fail('jwt_bearer_invalid_user', 'member is deactivated');
  return member;
}

/**
 * `formScope`: the request's `scope` parameter (RFC 7523 §2.1), which asks what the assertion's
 * `scope` claim asks: either may be given, and both only alike.
 */
export async function verifyAssertion(assertion: string, formScope?: string): Promise<VerifiedAssertion> {
  const { kid } = checkHeader(assertion);
  let unverified: JWTPayload;
  try {
    unverified = decodeJwt(assertion);
  } catch {
    return fail('jwt_bearer_invalid', 'payload is not a JSON object');
  }
  // The issuer is read before the signature is checked: it names the keys to check it with.
  if (typeof unverified.iss !== 'string') return fail('jwt_bearer_invalid_issuer', 'iss missing or not a string');
  const application = await findApplicationByClientId(unverified.iss);
  if (!application) return fail('jwt_bearer_invalid_issuer', 'no application with this client id');
  // An authorization-code application has no keys and no business here: its client id is no issuer.
  if (application.type !== 'serverToServer') return fail('jwt_bearer_invalid_issuer', 'not a server-to-server application');

  const payload = await verifySignatureAndClaims(assertion, application, kid);
  const nowS = Math.floor(Date.now() / 1000);
  const { exp } = checkClaims(payload, nowS);
  const member = await resolveMember(application, payload.sub);

  const claimed = (payload as { scope?: unknown }).scope;
  if (claimed !== undefined && (typeof claimed !== 'string' || claimed.length > MAX_SCOPE_LENGTH)) fail('invalid_scope', 'scope claim not a short string');
  if (formScope !== undefined && formScope.length > MAX_SCOPE_LENGTH) fail('invalid_scope', 'scope parameter not a short string');
  if (claimed !== undefined && formScope !== undefined && !sameScopes(claimed as string, formScope)) {
    throw new TokenError(
      'invalid_request',
      'scope parameter differs from the scope claim',
      "The scope parameter and the assertion's scope claim ask for different scopes: give one of them, or both alike.",
    );
  }
  const scope = claimed ?? formScope;
  const scopes = grantedScopes(scope as string | undefined, application, member.role);
  if (scopes.length === 0) fail('invalid_scope', 'empty scope intersection');

  // Last, so that an assertion refused for another reason does not burn its jti.
  const jti = payload.jti;
  if (jti !== undefined) {
    if (typeof jti !== 'string' || jti.length === 0 || jti.length > MAX_JTI_LENGTH) fail('jwt_bearer_invalid', 'jti not a short string');
    if (!(await useAssertionId(application.workspaceId, application.clientId, jti, exp + CLOCK_SKEW_S))) {
      fail('jwt_bearer_invalid', 'jti replayed');
    }
  }
  return { application, member, scopes };
}

/** Whether two scope strings ask for the same scopes (order, repeats and spaces aside; an alias is its scope, as everywhere a scope is named). */
function sameScopes(a: string, b: string): boolean {
  const asked = (s: string) => {
    const { scopes, unknown } = parseScopes(s);
    return [...scopes, ...new Set(unknown)].sort().join(' ');
  };
  return asked(a) === asked(b);
}
