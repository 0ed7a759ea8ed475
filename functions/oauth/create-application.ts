// POST {app_url}/oauth2/applications — register an application (server-to-server or authorization code) (admin members only).
import { registerApplication } from '#lib/auth/applications.ts';
import { config } from '#lib/config.ts';
import { CreateApplicationBody } from '#lib/domain/schemas/applications.ts';
import { RegisteredApplication } from '#lib/domain/schemas/responses.ts';
import { authedApi } from '#lib/http/authenticated.ts';
import { principalOf } from '#lib/http/request.ts';
import * as routes from '#lib/routes.ts';

export const handler = authedApi(
  routes.createApplication,
  { body: CreateApplicationBody, responses: { 201: RegisteredApplication }, headers: { idempotencyKey: true } },
  async (req, { body }) => {
    const principal = principalOf(req);
    const app = await registerApplication(principal.workspaceId, body, req, principal);
    // A retry under an Idempotency-Key answers the first application without its client secret: the
    // service keeps only the secret's hash, and the secret was shown once, in the first answer.
    if (req.claim?.replayed && 'clientSecret' in app) delete app.clientSecret;
    return { status: 201, body: app, headers: { Location: `${config.appUrl}/oauth2/applications/${app.clientId}` } };
  },
);
