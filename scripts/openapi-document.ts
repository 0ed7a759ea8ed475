// The OpenAPI document from the route table and the declarations the handler modules pass to
// api(): each module listed in lib/routes.ts is imported (as the local gateway imports it) and its
// handler's `operation` read. Used by `npm run openapi` and by the tests that hold
// docs/openapi.json to it.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildOpenApi, type DocumentedOperation } from '#lib/http/openapi.ts';
import type { ApiHandler } from '#lib/http/pipeline.ts';
import { ROUTES, type Route } from '#lib/routes.ts';

const PROJECT_ROOT = join(import.meta.dirname, '..');

export async function documentedOperations(): Promise<DocumentedOperation[]> {
  return Promise.all(
    (ROUTES as readonly Route[]).map(async (route) => {
      const mod = (await import(pathToFileURL(join(PROJECT_ROOT, route.handler)).href)) as { handler?: Partial<ApiHandler> };
      const operation = mod.handler?.operation;
      if (!operation) throw new Error(`${route.handler} exports no handler made by api() (lib/http/pipeline.ts)`);
      // The row a handler passes to api() is the one its function is deployed and documented as.
      if (mod.handler?.route !== route)
        throw new Error(
          `${route.handler} is made with the row of ${mod.handler?.route?.operationId ?? 'no route'}, not of ${route.operationId} (lib/routes.ts)`,
        );
      return { route, operation };
    }),
  );
}

export async function openApiDocument(): Promise<Record<string, unknown>> {
  return buildOpenApi(await documentedOperations());
}
