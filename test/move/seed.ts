// A workspace with something of every kind a move carries, written through the store's own create
// functions: members of each role, custom fields, a hierarchy with every standard field set somewhere,
// customers (companies, users under them and alone), relations, notes of both types with customers,
// anonymous notes, links of every importance, re-rated links, a note edited after it was rated, and
// a webhook subscription; teams with members (entities assigned to them), tag values (one renamed,
// one replaced by another), a select option deleted while features hold it, the planning entities
// with their statuses and links, note comments.
import { issueApiToken } from '#lib/auth/api-tokens.ts';
import type { ReferenceWrite } from '#lib/domain/entity-fields.ts';
import type { ValueRef } from '#lib/domain/schemas/field-values.ts';
import { IMPORTANCES } from '#lib/domain/score.ts';
import { FEATURE_STATUSES as STATUSES, statusesOf } from '#lib/domain/statuses.ts';
import { addComment } from '#lib/store/comments.ts';
import { addCustomField } from '#lib/store/custom-fields.ts';
import { createEntity } from '#lib/store/entity-writes.ts';
import { createFieldValue, deleteFieldValue, updateFieldValue } from '#lib/store/field-values.ts';
import { addMember, type Member } from '#lib/store/members.ts';
import { createNote, updateNote, upsertLink } from '#lib/store/notes.ts';
import { createRelation } from '#lib/store/relations.ts';
import { createTeam, updateTeam } from '#lib/store/teams.ts';
import { createWebhook } from '#lib/store/webhooks.ts';
import { createWorkspace } from '#lib/store/workspaces.ts';

let n = 0;
const email = (p: string) => `${p}-${process.pid}-${++n}@example.com`;

async function inParallel<T>(count: number, parallel: number, fn: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = new Array<T>(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < count) {
        const i = next++;
        out[i] = await fn(i);
      }
    }),
  );
  return out;
}

export interface Seeded {
  ws: string;
  admin: Member;
  token: string;
  features: string[];
}

export async function seedWorkspace(options: { notes: number; name?: string }): Promise<Seeded> {
  const ws = (await createWorkspace(options.name ?? 'Move source')).id;
  const admin = await addMember(ws, { email: email('admin'), name: 'Ada Admin', role: 'admin', active: true });
  const maker = await addMember(ws, { email: email('maker'), name: 'Mo Maker', role: 'maker', active: true });
  await addMember(ws, { email: email('viewer'), role: 'viewer', active: false });
  const token = (await issueApiToken(admin)).token;
  const text = await addCustomField(ws, { entityType: 'feature', name: 'Team note', fieldKind: 'text' });
  const size = await addCustomField(ws, { entityType: 'feature', name: 'Size', fieldKind: 'select', options: ['S', 'M', 'L'] });
  const effort = await addCustomField(ws, { entityType: 'feature', name: 'Effort', fieldKind: 'number' });
  const noteField = await addCustomField(ws, { entityType: 'textNote', name: 'Channel', fieldKind: 'text' });
  const web = await createTeam(ws, { name: 'Web', handle: `web${process.pid}`, description: 'The web app' });
  const mobile = await createTeam(ws, { name: 'Mobile', handle: `mobile${process.pid}` });
  await updateTeam(ws, web.id, { members: () => [admin.id, maker.id] });
  await updateTeam(ws, mobile.id, { members: () => [maker.id] });
  // Tag values: one made first and renamed, one to be replaced by another (its entities read the replacement).
  const early = await createFieldValue(ws, { kind: 'tags' }, { name: 'early', color: 'purple' });
  await updateFieldValue(ws, { kind: 'tags' }, early.id, { name: 'earliest' });
  const legacy = await createFieldValue(ws, { kind: 'tags' }, { name: 'legacy' });
  const core = await createFieldValue(ws, { kind: 'tags' }, { name: 'core', color: 'red' });
  const make = async (
    type: 'product' | 'component' | 'feature' | 'subfeature' | 'company' | 'user' | 'initiative' | 'objective' | 'keyResult' | 'release' | 'releaseGroup',
    name: string,
    parent?: string,
    values: Record<string, unknown> = {},
  ) => {
    // Tags and teams are references, resolved as a create request's are (a new tag name makes a value).
    const { tags, teams, ...rest } = values as { tags?: ValueRef[]; teams?: ValueRef[] };
    const references: ReferenceWrite[] = [
      ...(tags ? [{ field: 'tags' as const, items: tags, path: ['data', 'fields', 'tags'] }] : []),
      ...(teams ? [{ field: 'teams' as const, items: teams, path: ['data', 'fields', 'teams'] }] : []),
    ];
    return (await createEntity(ws, { type, values: { name, ...rest }, references, ...(parent ? { parent: { id: parent } } : {}), parentPath: ['data'] })).id;
  };
  const owner = { id: maker.id, email: maker.email };
  const features: string[] = [];
  const hierarchy: string[] = [];
  for (let p = 0; p < 2; p++) {
    const product = await make('product', `Product ${p}`, undefined, {
      description: `<p>Product ${p}</p>`,
      owner,
      tags: [{ name: 'core' }, { id: early.id }, { id: legacy.id }],
      teams: [{ id: web.id }, ...(p ? [{ name: 'Mobile' }] : [])],
    });
    hierarchy.push(product);
    const component = await make('component', `Component ${p}`, product, { status: { ...STATUSES[1] } });
    hierarchy.push(component);
    for (let f = 0; f < 4; f++) {
      const feature = await make('feature', `Feature ${p}.${f}`, f % 2 ? component : product, {
        status: { ...STATUSES[f % STATUSES.length]! },
        timeframe: { startDate: '2025-01-01', endDate: '2025-03-31', granularity: 'quarter' },
        archived: f === 3,
        [text.id]: `note ${f}`,
        // Stored as a write stores it: the option's id.
        [size.id]: size.values![f % 3]!.id,
        [effort.id]: f * 1.5,
        ...(f === 0 ? { owner } : {}),
      });
      features.push(feature);
      hierarchy.push(feature);
      if (f < 2) {
        const sub = await make('subfeature', `Subfeature ${p}.${f}`, feature, { tags: [{ name: 'beta' }, { name: 'ux' }] });
        features.push(sub);
        hierarchy.push(sub);
      }
    }
  }
  // A select option deleted while features hold it: they keep its id, which reads as no value.
  await deleteFieldValue(ws, { kind: 'select', def: size }, size.values![2]!.id, undefined);
  await createRelation(ws, features[0]!, 'link', features[3]!, ['data']);
  await createRelation(ws, features[1]!, 'isBlocking', features[4]!, ['data']);
  // 'legacy' replaced by 'core': the products read 'core' once.
  await deleteFieldValue(ws, { kind: 'tags' }, legacy.id, core.id);
  // The planning entities, each with a status of its own type's set, linked to the hierarchy and to each other.
  const initiative = await make('initiative', 'Grow checkout', undefined, {
    status: { ...statusesOf('initiative')[2]! },
    owner,
    tags: [{ name: 'core' }],
    teams: [{ id: mobile.id }],
  });
  const objective = await make('objective', 'Faster payments', undefined, { status: { ...statusesOf('objective')[1]! } });
  await make('keyResult', 'Pay in 2 s', objective, { status: { ...statusesOf('keyResult')[0]! } });
  const group = await make('releaseGroup', 'Quarters', undefined, { description: '<p>By quarter</p>' });
  const release = await make('release', 'Q1', group, {
    status: { ...statusesOf('release')[0]! },
    timeframe: { startDate: '2025-01-01', endDate: '2025-03-31', granularity: 'quarter' },
  });
  await createRelation(ws, initiative, 'link', objective, ['data']);
  await createRelation(ws, features[0]!, 'link', release, ['data']);
  await createRelation(ws, features[2]!, 'link', initiative, ['data']);
  const customers: Array<{ id: string; type: 'user' | 'company' }> = [];
  for (let c = 0; c < 6; c++) {
    const company = await make('company', `Company ${c}`, undefined, { domain: `company${c}-${process.pid}.example.com` });
    customers.push({ id: company, type: 'company' });
    customers.push({ id: await make('user', `User ${c}`, company, { email: `user${c}@company${c}.example.com` }), type: 'user' });
  }
  customers.push({ id: await make('user', 'Lone user', undefined, { email: 'lone@example.com' }), type: 'user' });
  const notes = await inParallel(options.notes, 8, async (i) => {
    const customer = i % 7 === 0 ? undefined : customers[i % customers.length]!;
    const links = [...new Set([features[i % features.length]!, features[(i * 5 + 1) % features.length]!])].slice(0, 1 + (i % 2));
    const conversation = i % 11 === 0;
    return createNote(ws, {
      type: conversation ? 'conversationNote' : 'textNote',
      values: {
        name: `Feedback ${i}`,
        content: conversation
          ? [{ externalId: `m${i}`, authorType: 'customer', content: `Please ${i}`, timestamp: '2025-02-03T04:05:06Z' }]
          : `<p>Feedback ${i}</p>`,
        ...(i % 3 === 0 ? { tags: [{ name: 'csv' }] } : {}),
        ...(i % 4 === 0 ? { owner } : {}),
        ...(i % 5 === 0 && !conversation ? { [noteField.id]: 'email' } : {}),
      },
      ...(customer ? { customer: { id: customer.id, type: customer.type, path: ['data'] } } : {}),
      links: links.map((entityId, k) => ({ entityId, importance: IMPORTANCES[(i + k) % IMPORTANCES.length]!, path: ['data', k] })),
    });
  });
  // Re-rated links, and notes edited after they were rated (their update time moves, their rating time does not).
  for (let i = 1; i < notes.length; i += 9) await upsertLink(ws, notes[i]!.id, features[i % features.length]!, 'critical', { create: false, path: ['data'] });
  for (let i = 2; i < notes.length; i += 13) await updateNote(ws, notes[i]!.id, () => ({ values: { name: `Feedback ${i} (edited)` } }));
  for (let i = 0; i < notes.length; i += 17) {
    for (const [k, who] of [admin, maker].entries())
      await addComment(ws, notes[i]!.id, { content: `Comment ${k} on ${i}`, author: { id: who.id, email: who.email } }, () => new Error('note gone'));
  }
  await createWebhook(ws, {
    id: crypto.randomUUID(),
    name: 'Scores',
    events: ['customer-score.updated', 'note.created'],
    url: 'https://hooks.example.com/pm',
    version: 1,
    createdAt: new Date().toISOString(),
    sealedSigningSecret: 'sealed',
    sealedAuthorization: undefined,
  });
  void hierarchy;
  return { ws, admin, token, features };
}
