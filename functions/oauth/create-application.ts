// POST {app_url}/oauth2/applications — register a server-to-server application (admin members only).
import { registerApplication } from '#lib/auth/applications.ts';
import { config } from '#lib/config.ts';
import { Application, CreateApplicationBody } from '#lib/domain/schemas/applications.ts';
import { api } from '#lib/http/pipeline.ts';
import { principalOf } from '#lib/http/request.ts';

export const handler = api('createApplication', { body: CreateApplicationBody, responses: { 201: Application } }, async (req, { body }) => {
  const app = await registerApplication(principalOf(req).workspaceId, body);
  return { status: 201, body: app, headers: { Location: `${config.appUrl}/oauth2/applications/${app.clientId}` } };
});
