// POST {app_url}/oauth2/applications — register a server-to-server application (admin members only).
import { registerApplication } from '#lib/auth/applications.ts';
import { config } from '#lib/config.ts';
import { api } from '#lib/http/pipeline.ts';
import { principalOf } from '#lib/http/request.ts';

export const handler = api('createApplication', async (req) => {
  const app = await registerApplication(principalOf(req).workspaceId, req.body);
  return { status: 201, body: app, headers: { Location: `${config.appUrl}/oauth2/applications/${app.clientId}` } };
});
