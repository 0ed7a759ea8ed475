// Every event type fires exactly once for its change, read from the real stream of DynamoDB Local
// while the API makes the changes: creates, updates, a move, re-rates, a customer change, unlinking,
// a cascading delete (with its clean-up) and a note delete. Nothing is emitted for a change of internal attributes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweep } from '#lib/store/sweep.ts';
import { collectEvents, summary, type EventCollector } from './support.ts';
import { client } from '../score/helpers.ts';
import { newWorkspace, startApp, type TestApp } from '../support/app.ts';

let app: TestApp;
let events: EventCollector;

beforeAll(async () => {
  app = await startApp();
  events = await collectEvents();
});

afterAll(async () => {
  await events?.stop();
  await app?.close();
});

describe('events derived from the table stream', () => {
  it('each change of the hierarchy, notes and links makes exactly its events, and each score move one customer-score.updated', async () => {
    const ws = await newWorkspace();
    const api = client(app, ws.token);
    const product = await api.entity('product');
    const component = await api.entity('component', product);
    const feature = await api.entity('feature', component);
    const sub = await api.entity('subfeature', feature);
    const company = await api.entity('company');
    const note = await api.note({ customer: company, links: [[sub, 'critical']] });
    await events.settled();
    expect(summary(events.of(ws.workspaceId))).toEqual(
      [
        `product.created ${product}`,
        `component.created ${component}`,
        `feature.created ${feature}`,
        `feature.created ${sub}`,
        `note.created ${note}`,
        `insight.created ${note} ${sub}`,
        `customer-score.updated ${sub} [score] 0→3`,
        `customer-score.updated ${feature} [score] 0→3`,
        `customer-score.updated ${component} [score] 0→3`,
        `customer-score.updated ${product} [score] 0→3`,
      ].sort(),
    );

    let consumed = events.of(ws.workspaceId).length;
    /** The events since the previous step, once the stream is read up to now. */
    const step = async (expected: string[]) => {
      await events.settled();
      const fresh = events.of(ws.workspaceId).slice(consumed);
      consumed += fresh.length;
      expect(summary(fresh)).toEqual(expected.sort());
    };

    // A re-rate moves scores but is no insight event.
    await api.ok('PUT', `/notes/${note}/relationships/link/${sub}`, { data: { importance: 'important' } });
    await step([sub, feature, component, product].map((id) => `customer-score.updated ${id} [score] 3→2`));

    // A field change is an update; writing the same value again is none (only updatedAt changes).
    await api.ok('PATCH', `/entities/${feature}`, { data: { fields: { name: 'Renamed' } } });
    await api.ok('PATCH', `/entities/${feature}`, { data: { fields: { name: 'Renamed' } } });
    await step([`feature.updated ${feature} [name]`]);

    // A move: `parent` changed; the old ancestor loses the score, the product (on both chains) does not move.
    await api.ok('PUT', `/entities/${feature}/relationships/parent`, { data: { target: { id: product } } });
    await step([`feature.updated ${feature} [parent]`, `customer-score.updated ${component} [score] 2→0`]);

    // Note fields, then its customer (the rating becomes anonymous: weight 2 → 1).
    await api.ok('PATCH', `/notes/${note}`, { data: { fields: { name: 'Still feedback' } } });
    await api.ok('DELETE', `/notes/${note}/relationships/customer/${company}`);
    await step([
      `note.updated ${note} [name]`,
      `note.updated ${note} [customer]`,
      ...[sub, feature, product].map((id) => `customer-score.updated ${id} [score] 2→1`),
    ]);

    // Unlinking: insight.deleted and the scores back to 0.
    await api.ok('DELETE', `/notes/${note}/relationships/link/${sub}`);
    await step([`insight.deleted ${note} ${sub}`, ...[sub, feature, product].map((id) => `customer-score.updated ${id} [score] 1→0`)]);

    // A cascade: the feature and its subfeature deleted once each, the link under it removed (insight.deleted),
    // and the product's score falls; nothing for the marked items' later changes or removal.
    const other = await api.note({ links: [[sub]] });
    await step([
      `note.created ${other}`,
      `insight.created ${other} ${sub}`,
      ...[sub, feature, product].map((id) => `customer-score.updated ${id} [score] 0→1`),
    ]);
    await api.ok('DELETE', `/entities/${feature}`);
    // The links under it go with the clean-up (the delete's pending work), and their insight.deleted with them.
    await sweep({ workspace: ws.workspaceId, until: Date.now() + 30_000 });
    await step([`feature.deleted ${feature}`, `feature.deleted ${sub}`, `insight.deleted ${other} ${sub}`, `customer-score.updated ${product} [score] 1→0`]);

    await api.ok('DELETE', `/notes/${note}`);
    await api.ok('DELETE', `/entities/${company}`);
    await step([`note.deleted ${note}`]);
  });
});
