// POST {app_url}/oauth2/applications/{clientId}/keys — upload an RSA public key (PEM).
import { uploadKey } from '#lib/auth/applications.ts';
import { AddKeyBody, ApplicationPath } from '#lib/domain/schemas/applications.ts';
import { ApplicationKey } from '#lib/domain/schemas/responses.ts';
import { authedApi } from '#lib/http/authenticated.ts';
import { principalOf } from '#lib/http/request.ts';
import * as routes from '#lib/routes.ts';

export const handler = authedApi(
  routes.addApplicationKey,
  { params: ApplicationPath, body: AddKeyBody, responses: { 201: ApplicationKey }, errors: ['conflict.uniqueViolation'], headers: { idempotencyKey: true } },
  async (req, { params, body }) => {
    const principal = principalOf(req);
    const key = await uploadKey(principal.workspaceId, params.clientId, body.publicKey, req, principal);
    return { status: 201, body: key };
  },
);
