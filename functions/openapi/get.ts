// GET {base_url}/openapi.json — this API's OpenAPI 3.1 document, public. docs/openapi.json is
// embedded in the bundle as data (no zod, no generator) and answered with the deployment's own
// addresses (lib/http/openapi-urls.ts).
import { config } from '#lib/config.ts';
import { OpenApiDocument } from '#lib/domain/schemas/openapi-document.ts';
import { atAppUrl } from '#lib/http/openapi-urls.ts';
import { api } from '#lib/http/pipeline.ts';
import document from '../../docs/openapi.json' with { type: 'json' };

export const handler = api('getOpenApiDocument', { responses: { 200: OpenApiDocument } }, () =>
  Promise.resolve({ status: 200, body: atAppUrl(document, config.appUrl) }),
);
