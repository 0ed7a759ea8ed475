import type { Route } from '../../routes.ts';
import { ApiError } from '../errors.ts';
import type { ApiMiddleware } from '../request.ts';

/** JSON bodies above this are refused before parsing (DynamoDB items are ≤ 400 KB anyway). */
export const MAX_JSON_BODY_BYTES = 256 * 1024;

/** `application/json` or a `+json` type, parameters (charset) ignored. */
export function isJsonMediaType(contentType: string | undefined): boolean {
  if (!contentType) return false;
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  return type === 'application/json' || /^application\/[a-z0-9.+-]+\+json$/.test(type);
}

export function decodeBody(body: string | null, isBase64Encoded: boolean): string {
  if (body === null) return '';
  return isBase64Encoded ? Buffer.from(body, 'base64').toString('utf8') : body;
}

/** Parses the JSON body of routes that take one; leaves form bodies to their handler. */
export function body(route: Route): ApiMiddleware {
  return {
    before: (request) => {
      if (!route.body) return;
      const api = request.context.api;
      const text = decodeBody(api.event.body, api.event.isBase64Encoded);
      if (route.body === 'form') {
        api.rawBody = text;
        return;
      }
      if (!isJsonMediaType(api.headers.get('content-type'))) {
        throw new ApiError('request.malformed', `Content-Type must be application/json (got ${JSON.stringify(api.headers.get('content-type') ?? 'none')}).`);
      }
      if (Buffer.byteLength(text) > MAX_JSON_BODY_BYTES) {
        throw new ApiError('request.tooLarge', `The request body is larger than ${MAX_JSON_BODY_BYTES} bytes.`);
      }
      if (text.trim() === '') throw new ApiError('request.malformed', 'The request body is empty; a JSON document is required.');
      try {
        api.body = JSON.parse(text);
      } catch (err) {
        throw new ApiError('request.malformed', `The request body is not valid JSON: ${(err as Error).message}.`);
      }
    },
  };
}
