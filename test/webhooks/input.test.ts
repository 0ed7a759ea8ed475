// Subscription bodies (lib/domain/schemas/webhooks.ts): Productboard's shape, our envelope's pointers, event
// types this service cannot produce refused by name, nothing unknown silently accepted.
import { describe, expect, it } from 'vitest';
import { InvalidInput } from '#lib/domain/errors.ts';
import { EVENT_TYPES } from '#lib/domain/events.ts';
import { parseInput } from '#lib/domain/input.ts';
import { CreateWebhookBody } from '#lib/domain/schemas/webhooks.ts';
import { resourcesRead } from '#lib/domain/webhooks.ts';

const parseWebhookInput = (body: unknown) => parseInput(CreateWebhookBody, body, 'body');

const body = (fields: Record<string, unknown>) => ({
  data: {
    fields: {
      name: 'Feature changes',
      events: [{ eventType: 'feature.updated' }],
      notification: { url: 'https://hooks.example.com/pb', version: 1 },
      ...fields,
    },
  },
});

const rejection = (input: unknown) => {
  try {
    parseWebhookInput(input);
  } catch (err) {
    if (err instanceof InvalidInput) return { message: err.detail, path: err.location.pointer };
    throw err;
  }
  throw new Error('accepted');
};

describe('webhook subscription input', () => {
  it("Productboard's example body is accepted, authorization kept apart", () => {
    expect(
      parseWebhookInput(
        body({
          events: [{ eventType: 'feature.updated' }, { eventType: 'feature.created' }],
          notification: { url: 'https://example.destination.com/webhooks-handler', version: 1, headers: { authorization: 'Bearer mySecret' } },
        }),
      ),
    ).toEqual({
      name: 'Feature changes',
      events: ['feature.updated', 'feature.created'],
      url: 'https://example.destination.com/webhooks-handler',
      version: 1,
      authorization: 'Bearer mySecret',
    });
  });

  it('every event type of the document is accepted; any other type is refused naming the supported ones', () => {
    const documented = [
      'release.created',
      'objective.deleted',
      'key-result.updated',
      'initiative.created',
      'feature-release-assignment.updated',
      'hierarchy-entity.custom-field-value.updated',
    ];
    expect(parseWebhookInput(body({ events: documented.map((eventType) => ({ eventType })) })).events).toEqual(documented);
    const r = rejection(body({ events: [{ eventType: 'note.created' }, { eventType: 'release-group.created' }] }));
    expect(r).toEqual({
      message: `'/data/fields/events/1/eventType' is 'release-group.created', which this service does not produce; supported: ${EVENT_TYPES.join(', ')}.`,
      path: '/data/fields/events/1/eventType',
    });
  });

  it.each([
    [
      { events: [{ eventType: 'note.created' }, { eventType: 'note.created' }] },
      "'/data/fields/events/1/eventType' is 'note.created', which is listed twice.",
      '/data/fields/events/1/eventType',
    ],
    [{ events: [] }, "'/data/fields/events' must not be empty.", '/data/fields/events'],
    [{ name: '   ' }, "'/data/fields/name' must have a visible character, not only white space (got '   ').", '/data/fields/name'],
    [{ name: '\u200b' }, "'/data/fields/name' must have a visible character, not only white space (got '\u200b').", '/data/fields/name'],
    [
      { notification: { url: 'https://a.example/x', version: 2 } },
      "'/data/fields/notification/version' must be 1 (got 2).",
      '/data/fields/notification/version',
    ],
    [
      { notification: { url: 'https://a.example/x', version: 1, headers: { 'x-api-key': 'k' } } },
      "Unknown property 'x-api-key' in '/data/fields/notification/headers'.",
      '/data/fields/notification/headers/x-api-key',
    ],
    [
      { notification: { url: 'https://a.example/x', version: 1, headers: { authorization: 'Bearer a\r\nX-Evil: 1' } } },
      "'/data/fields/notification/headers/authorization' must be one line of visible ASCII characters.",
      '/data/fields/notification/headers/authorization',
    ],
    [{ secret: 'mine' }, "Unknown property 'secret' in '/data/fields'.", '/data/fields/secret'],
  ])('%j → %s', (fields, message, path) => {
    expect(rejection(body(fields))).toEqual({ message, path });
  });

  it('the resources a subscriber must read: entities for hierarchy and score events, notes for note and insight events', () => {
    expect(resourcesRead(['feature.created', 'customer-score.updated'])).toEqual(['entities']);
    expect(resourcesRead(['insight.created', 'product.deleted'])).toEqual(['entities', 'notes']);
  });
});
