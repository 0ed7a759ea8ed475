// GET {base_url}/openapi.json — this API's OpenAPI 3.1 document, public. docs/openapi.json is
// embedded in the bundle as data (no generator), brotli-compressed (lib/http/openapi-embedded.ts,
// written by `npm run openapi`), decompressed on the first request rather than at init, and
// answered with the deployment's own addresses (lib/http/openapi-urls.ts).
import { brotliDecompressSync } from 'node:zlib';
import { config } from '#lib/config.ts';
import { OpenApiDocument, type BodyOf } from '#lib/domain/schemas/responses.ts';
import { DOCUMENT_BROTLI_BASE64 } from '#lib/http/openapi-embedded.ts';
import { atAppUrl } from '#lib/http/openapi-urls.ts';
import { api } from '#lib/http/pipeline.ts';
import * as routes from '#lib/routes.ts';

type Document = BodyOf<typeof OpenApiDocument> & { components?: Record<string, unknown> };
let document: Document | undefined;
const committed = (): Document => (document ??= JSON.parse(brotliDecompressSync(Buffer.from(DOCUMENT_BROTLI_BASE64, 'base64')).toString('utf8')) as Document);

export const handler = api(routes.getOpenApiDocument, { responses: { 200: OpenApiDocument } }, () =>
  Promise.resolve({ status: 200, body: atAppUrl(committed(), config.appUrl) }),
);
