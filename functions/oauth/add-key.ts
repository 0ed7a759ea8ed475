// POST {app_url}/oauth2/applications/{clientId}/keys — upload an RSA public key (PEM).
import { uploadKey } from '#lib/auth/applications.ts';
import { api } from '#lib/http/pipeline.ts';
import { principalOf } from '#lib/http/request.ts';

export const handler = api('addApplicationKey', async (req) => {
  const key = await uploadKey(principalOf(req).workspaceId, req.params.clientId!, req.body);
  return { status: 201, body: key };
});
