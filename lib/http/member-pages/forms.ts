// The member pages' two forms (sign-in, sign-out): their body, and the answer to one that does not
// carry the CSRF token its cookie binds.
import { parseForm } from '../form.ts';
import { PageError } from '../pages/page-error.ts';
import type { ApiRequest } from '../request.ts';

/** A form's fields; a body that is not a form is an error page. */
export function pageFormOf(req: ApiRequest): Map<string, string> {
  const parsed = parseForm(req.headers.get('content-type'), req.rawBody);
  if (!parsed.ok) throw new PageError(400, 'The form could not be read', parsed.detail);
  return parsed.form;
}

/** Forged, or from a page whose cookie is gone: nothing happens. */
export function staleMemberForm(form: 'sign-in' | 'sign-out'): PageError {
  return form === 'sign-in'
    ? new PageError(403, 'This form has expired', 'The sign-in form was not sent from this site, or it is too old. Open the sign-in page again.')
    : new PageError(
        403,
        'This form has expired',
        'The sign-out form was not sent from this site, or it is too old: you are still signed in. Open any page and sign out from there.',
      );
}
