// GET {app_url}/oauth2/applications — the workspace's applications, oldest first.
import { applicationView } from '#lib/auth/applications.ts';
import { ApplicationList } from '#lib/domain/schemas/responses.ts';
import { authedApi } from '#lib/http/authenticated.ts';
import { principalOf } from '#lib/http/request.ts';
import * as routes from '#lib/routes.ts';
import { listApplications } from '#lib/store/applications.ts';

export const handler = authedApi(routes.listApplications, { responses: { 200: ApplicationList } }, async (req) => {
  const apps = await listApplications(principalOf(req).workspaceId);
  return { status: 200, body: { data: apps.map(applicationView) } };
});
