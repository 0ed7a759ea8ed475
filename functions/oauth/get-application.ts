// GET {app_url}/oauth2/applications/{clientId} — one application with its public keys (admin members only).
import { applicationView } from '#lib/auth/applications.ts';
import { applicationNotFound } from '#lib/domain/applications.ts';
import { ApplicationPath } from '#lib/domain/schemas/applications.ts';
import { Application } from '#lib/domain/schemas/responses.ts';
import { authedApi } from '#lib/http/authenticated.ts';
import { principalOf } from '#lib/http/request.ts';
import * as routes from '#lib/routes.ts';
import { getApplication } from '#lib/store/applications.ts';

export const handler = authedApi(routes.getApplication, { params: ApplicationPath, responses: { 200: Application } }, async (req, { params: { clientId } }) => {
  const app = await getApplication(principalOf(req).workspaceId, clientId);
  if (!app) throw applicationNotFound(clientId);
  return { status: 200, body: applicationView(app) };
});
