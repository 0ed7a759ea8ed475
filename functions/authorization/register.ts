// POST {app_url}/oauth/register — dynamic client registration (RFC 7591) of public clients; its
// refusals are RFC 7591's {error, error_description}, never the envelope.
import { registerClient } from '#lib/auth/client-registration.ts';
import { ClientRegistrationBody } from '#lib/domain/schemas/authorization.ts';
import { ClientRegistrationResponse, OAuthErrorBody } from '#lib/domain/schemas/responses.ts';
import { ApiError } from '#lib/http/errors.ts';
import { api } from '#lib/http/pipeline.ts';
import * as routes from '#lib/routes.ts';

export const handler = api(
  routes.registerClient,
  { body: ClientRegistrationBody, refusal: OAuthErrorBody, responses: { 201: ClientRegistrationResponse } },
  async (req, { body }) => {
    const outcome = await registerClient(body, req.event.requestContext?.identity?.sourceIp ?? 'unknown');
    if (!outcome.ok) {
      throw new ApiError(
        'rate.limitExceeded',
        `Too many client registrations from this address; try again in ${Math.ceil(outcome.retryAfterS / 60)} minutes.`,
        {
          headers: { 'Retry-After': String(outcome.retryAfterS) },
        },
      );
    }
    req.log.info('client registered', { clientId: outcome.body.client_id });
    return { status: 201, body: outcome.body as never, headers: { 'Cache-Control': 'no-store' } };
  },
);
