// Redirect URIs of authorization-code applications (RFC 6749 §3.1.2, RFC 9700 §2.1, RFC 8252 §7.3):
// registered in full, compared by exact string match, https — or http on a loopback host for
// native and development clients — and never with a fragment, credentials or a wildcard.

const MAX_REDIRECT_URI_LENGTH = 2000;
export const MAX_REDIRECT_URIS = 10;

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);
/** A character no URI holds as written (RFC 3986 §2: unreserved, reserved and `%` are all it has). */
const NOT_URI_CHARACTER = /[^A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]/u;
/** A `%` not followed by two hexadecimal digits (RFC 3986 §2.1). */
const BAD_PERCENT = /%(?![0-9A-Fa-f]{2})/;

/** The host of an absolute URI as it is written (lower-cased, without its port), before a parser normalizes it. */
const writtenHost = (value: string): string =>
  value
    .slice(value.indexOf('//') + 2)
    .split(/[/?#]/, 1)[0]!
    .replace(/:\d*$/, '')
    .toLowerCase();

/** Why a redirect URI cannot be registered, or undefined when it can. */
export function redirectUriProblem(value: string): string | undefined {
  if (value.length === 0) return 'is empty';
  if (value.length > MAX_REDIRECT_URI_LENGTH) return `is longer than ${MAX_REDIRECT_URI_LENGTH} characters`;
  if (value.includes('#')) return 'has a fragment (#), which RFC 6749 §3.1.2 forbids';
  if (value.includes('*')) return 'has a wildcard (*); register every URI in full';
  if (/\s/.test(value)) return 'contains white space';
  // A URI is matched, and redirected to, as written: one a parser would percent-encode is not one.
  const stray = NOT_URI_CHARACTER.exec(value);
  if (stray) return `contains ${JSON.stringify(stray[0])}, which no URI holds as written (RFC 3986 §2): percent-encode it`;
  if (BAD_PERCENT.test(value)) return 'has a % that is not followed by two hexadecimal digits (RFC 3986 §2.1)';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'is not an absolute URL';
  }
  if (url.username !== '' || url.password !== '') return 'carries user credentials';
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:') {
    if (!LOOPBACK_HOSTS.has(url.hostname)) return 'uses http on a host that is not a loopback address (127.0.0.1, [::1], localhost); use https';
    // The parser reads 0x7f.1 or 127.0.0.1. as 127.0.0.1, but URIs are matched as written: the
    // loopback host must be written as one of its names.
    const written = writtenHost(value);
    return LOOPBACK_HOSTS.has(written) ? undefined : `writes its loopback host as '${written.slice(0, 100)}'; write it as 127.0.0.1, [::1] or localhost`;
  }
  return `uses the scheme ${url.protocol.slice(0, -1).slice(0, 20)}; only https (or http on a loopback address) is accepted`;
}

/** RFC 9700 §4.1.3: the URI in a request must equal a registered one character for character. */
export function isRegisteredRedirectUri(registered: readonly string[], candidate: string): boolean {
  return registered.includes(candidate);
}

/** The origins (scheme, host, port) of the registered redirect URIs: who may call the API from a browser. */
export function redirectOrigins(registered: readonly string[]): string[] {
  return [...new Set(registered.map((uri) => new URL(uri).origin))];
}

/** The registered URI with `params` appended to its query (RFC 6749 §4.1.2: retain its own query). */
export function redirectWith(uri: string, params: Record<string, string>): string {
  const url = new URL(uri);
  for (const [name, value] of Object.entries(params)) url.searchParams.append(name, value);
  return url.href;
}
