// DELETE {app_url}/oauth2/applications/{clientId} — its access tokens stop working at once (lib/auth/bearer.ts).
import { applicationNotFound } from '#lib/domain/applications.ts';
import { ApplicationPath } from '#lib/domain/schemas/applications.ts';
import { authedApi } from '#lib/http/authenticated.ts';
import { principalOf } from '#lib/http/request.ts';
import * as routes from '#lib/routes.ts';
import { deleteApplication } from '#lib/store/applications.ts';

export const handler = authedApi(routes.deleteApplication, { params: ApplicationPath, responses: { 204: null } }, async (req, { params: { clientId } }) => {
  if (!(await deleteApplication(principalOf(req).workspaceId, clientId))) throw applicationNotFound(clientId);
  return { status: 204 };
});
