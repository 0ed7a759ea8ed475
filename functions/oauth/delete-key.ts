// DELETE {app_url}/oauth2/applications/{clientId}/keys/{keyId} — after this, assertions signed with that key fail.
import { applicationNotFound } from '#lib/domain/applications.ts';
import { NotFound } from '#lib/domain/errors.ts';
import { ApplicationKeyPath } from '#lib/domain/schemas/applications.ts';
import { authedApi } from '#lib/http/authenticated.ts';
import { principalOf } from '#lib/http/request.ts';
import * as routes from '#lib/routes.ts';
import { getApplication, removeApplicationKey } from '#lib/store/applications.ts';

export const handler = authedApi(
  routes.deleteApplicationKey,
  { params: ApplicationKeyPath, responses: { 204: null } },
  async (req, { params: { clientId, keyId } }) => {
    const { workspaceId } = principalOf(req);
    if (!(await removeApplicationKey(workspaceId, clientId, keyId))) {
      if (!(await getApplication(workspaceId, clientId))) throw applicationNotFound(clientId);
      throw new NotFound('key', keyId, `No key ${JSON.stringify(keyId.slice(0, 100))} on application ${clientId}.`);
    }
    return { status: 204 };
  },
);
