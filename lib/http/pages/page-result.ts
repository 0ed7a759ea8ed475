// A page as a handler answers it. The frame adds the headers every page carries (its route's
// response is `html`); a page only adds what is its own: a CSP whose form-action names the
// client's origin (the consent form redirects there), other headers, cookies.
import { pageCsp } from './layout.ts';
import type { ApiResult } from '../request.ts';

export function pageResult(
  status: number,
  body: string,
  options: { formActionOrigins?: readonly string[]; headers?: Record<string, string>; cookies?: string[] } = {},
): ApiResult {
  return {
    status,
    body,
    headers: { ...(options.formActionOrigins ? { 'Content-Security-Policy': pageCsp(options.formActionOrigins) } : {}), ...options.headers },
    ...(options.cookies?.length ? { cookies: options.cookies } : {}),
  };
}
