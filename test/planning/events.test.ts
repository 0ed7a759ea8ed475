// Webhook events of planning entities, read from DynamoDB Local's stream while the API makes the
// changes: initiative.*, objective.*, key-result.*, release.* (release groups make none), a
// feature's link to a release made or removed → feature-release-assignment.updated, a custom field
// value of a product hierarchy entity → hierarchy-entity.custom-field-value.updated; and a
// subscription to them receives the signed notifications through the local workers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { config } from '#lib/config.ts';
import { createSubscription } from '#lib/events/subscription-create.ts';
import { sweep } from '#lib/store/sweep.ts';
import { fieldCommands } from '../../local/admin/fields.ts';
import { startReceiver, type Receiver } from '../events/receiver.ts';
import { collectEvents, startWorkers, type EventCollector } from '../events/support.ts';
import { client } from '../score/helpers.ts';
import { newWorkspace, startApp, type TestApp } from '../support/app.ts';

let app: TestApp;

beforeAll(async () => {
  process.env.WEBHOOKS_ALLOW_LOOPBACK = '1';
  app = await startApp();
});
afterAll(async () => {
  await app?.close();
  delete process.env.WEBHOOKS_ALLOW_LOOPBACK;
});

const fieldAdd = fieldCommands.find((c) => c.name === 'field add')!;

/** `type id [attributes] target`, sorted: `target` is the last path (and query) of links.target. */
const lines = (events: Array<{ eventType: string; payload: { id?: string; updatedAttributes?: string[]; links: Record<string, string> } }>) =>
  events
    .map(
      (e) =>
        `${e.eventType} ${e.payload.id ?? '-'}${e.payload.updatedAttributes ? ` [${e.payload.updatedAttributes.join(',')}]` : ''} ${e.payload.links.target?.slice(config.baseUrl.length) ?? ''}`,
    )
    .sort();

describe('planning entity events from the table stream', () => {
  let events: EventCollector;
  beforeAll(async () => {
    events = await collectEvents();
  });
  afterAll(() => events?.stop());

  it('each change makes exactly its events', async () => {
    const ws = await newWorkspace();
    const api = client(app, ws.token);
    const product = await api.entity('product');
    const feature = await api.entity('feature', product);
    const sub = await api.entity('subfeature', feature);
    const group = await api.entity('releaseGroup');
    const release = await api.entity('release', group);
    const objective = await api.entity('objective');
    const keyResult = await api.entity('keyResult', objective);
    const initiative = await api.entity('initiative');
    await events.settled();
    let consumed = 0;
    const step = async (expected: string[]) => {
      await events.settled();
      const fresh = events.of(ws.workspaceId).slice(consumed);
      consumed += fresh.length;
      expect(lines(fresh)).toEqual(expected.sort());
    };
    const at = (id: string) => `/entities/${id}`;
    await step([
      `product.created ${product} ${at(product)}`,
      `feature.created ${feature} ${at(feature)}`,
      `feature.created ${sub} ${at(sub)}`,
      `release.created ${release} ${at(release)}`,
      `objective.created ${objective} ${at(objective)}`,
      `key-result.created ${keyResult} ${at(keyResult)}`,
      `initiative.created ${initiative} ${at(initiative)}`,
    ]);

    await api.ok('PATCH', `/entities/${keyResult}`, { data: { fields: { name: 'Conversion +5%', status: { name: 'In progress' } } } });
    await api.ok('PATCH', `/entities/${group}`, { data: { fields: { name: 'Mobile' } } });
    await step([`key-result.updated ${keyResult} [name,status] ${at(keyResult)}`]);

    // A feature and a subfeature in the release: one assignment event each, from the feature's side.
    const assignment = (f: string) => `feature-release-assignment.updated - ${at(f)}/relationships?type=link&target%5Bid%5D=${release}`;
    await api.ok('POST', `/entities/${feature}/relationships`, { data: { type: 'link', target: { id: release } } });
    await api.ok('POST', `/entities/${release}/relationships`, { data: { type: 'link', target: { id: sub } } });
    await api.ok('POST', `/entities/${objective}/relationships`, { data: { type: 'link', target: { id: feature } } });
    await step([assignment(feature), assignment(sub)]);
    // The assignment's link lists it while it exists.
    const listed = await api.ok('GET', `${at(feature)}/relationships?type=link&target%5Bid%5D=${release}`);
    expect(listed.json.data.map((r: { target: { id: string } }) => r.target.id)).toEqual([release]);

    // A custom field of a feature: feature.updated and the custom field value event, without an id.
    const { id: field } = (await fieldAdd.run({ workspace: ws.workspaceId, 'entity-type': 'feature', name: 'Effort', kind: 'number' })) as { id: string };
    await api.ok('PATCH', `/entities/${feature}`, { data: { fields: { [field]: 8 } } });
    await step([`feature.updated ${feature} [${field}] ${at(feature)}`, `hierarchy-entity.custom-field-value.updated - [${field}] ${at(feature)}`]);

    // The release group goes with its release: release.deleted, and the assignments end.
    await api.ok('DELETE', `/entities/${group}`);
    // The links of what a delete takes go with its clean-up (pending work): finish it now.
    await sweep({ until: Date.now() + 10_000, workspace: ws.workspaceId });
    await step([`release.deleted ${release} ${at(release)}`, assignment(feature), assignment(sub)]);
    await api.ok('DELETE', `/entities/${objective}`);
    await api.ok('DELETE', `/entities/${initiative}`);
    await step([
      `objective.deleted ${objective} ${at(objective)}`,
      `key-result.deleted ${keyResult} ${at(keyResult)}`,
      `initiative.deleted ${initiative} ${at(initiative)}`,
    ]);
  });
});

describe('planning entity events delivered to a subscriber', () => {
  let workers: Awaited<ReturnType<typeof startWorkers>>;
  let receiver: Receiver;
  beforeAll(async () => {
    workers = await startWorkers();
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.kill();
    await workers?.stop();
  });

  it('a subscription to release.created and feature-release-assignment.updated receives them signed, in the payload version 1 shape', async () => {
    const ws = await newWorkspace();
    const api = client(app, ws.token);
    const feature = await api.entity('feature', await api.entity('product'));
    const group = await api.entity('releaseGroup');
    await workers.settled();
    const { signingSecret } = await createSubscription(
      { workspaceId: ws.workspaceId, scopes: new Set(['entities:read']) },
      { name: 'releases', events: ['release.created', 'feature-release-assignment.updated'], url: receiver.url, version: 1, authorization: undefined },
    );
    receiver.useSecret(signingSecret);
    const release = await api.entity('release', group);
    await api.ok('POST', `/entities/${feature}/relationships`, { data: { type: 'link', target: { id: release } } });
    const got = await receiver.waitFor((d) => d.length >= 2);
    expect(got.map((r) => r.data).sort((a, b) => a.eventType.localeCompare(b.eventType))).toEqual([
      {
        eventType: 'feature-release-assignment.updated',
        links: { target: `${config.baseUrl}/entities/${feature}/relationships?type=link&target%5Bid%5D=${release}` },
      },
      { id: release, eventType: 'release.created', links: { target: `${config.baseUrl}/entities/${release}` } },
    ]);
    expect(got.every((r) => r.verified && r.status === 204)).toBe(true);
  });
});
