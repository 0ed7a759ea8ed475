// Teams of a workspace and their members (Productboard's teams API). A team is an item with two
// uniqueness guards (its name, lower-cased, and its handle); a membership is an item of its own,
// listed by the time it was made (GSI2), and the member item carries the ids of its teams
// (`teamIds`, a string set) so that a page of members names their teams with one more read.
//
// A membership change writes the membership and the member item together. Up to
// MEMBERS_PER_TRANSACTION members change in the same transaction as the team's fields; a larger
// change records the rest as pending work (lib/store/work.ts) in that transaction and goes on in
// further transactions of that size, each exact on its own: a request cut short (a timeout, a
// crash) has the rest finished by the sweeper (lib/store/sweep.ts), without another request. A
// later change of the members finishes such a rest first (or is refused while another worker
// holds it), so changes land in the order they were answered.
// Deleting a team with few members is one transaction; a larger one marks the team `deleting` (it
// is gone for every reader, its name and handle free again) with pending work that removes its
// memberships in those steps, then the item.
import { randomUUID } from 'node:crypto';
import { batchGetByKey, itemKeyId } from './batch.ts';
import { deleteItem, getItem } from './calls.ts';
import { isConditionFailed } from './errors.ts';
import { transactOnce, type WriteScope } from './idempotency.ts';
import * as keys from './keys.ts';
import { toMember, type Member } from './members.ts';
import { prereadFor, type Prereads } from './preread.ts';
import { partitionPages, type StoredItem } from './query.ts';
import { tableName } from './table.ts';
import { transact, type TxItem } from './tx.ts';
import { carryOn, earlierWork, finishEarlier, inTime, orUnfinished, workAbout, workPut, type HeldWork, type MemberChange } from './work.ts';
import { LAMBDA_EXTRA_MS } from '../config.ts';
import { deadlineOf } from '../deadline.ts';
import { Conflict, InvalidInput, NotFound, pointer, type Path } from '../domain/errors.ts';
import { nameKey } from '../domain/field-values.ts';

export interface TeamItem {
  id: string;
  name: string;
  handle: string;
  description?: string;
  createdAt: string;
  updatedAt: string;
  deleting?: string;
}

/** Member changes per transaction: two items each (membership, member), beside the team and its guards. */
export const MEMBERS_PER_TRANSACTION = 45;
/** Member changes one update may make: what its pending work holds stays far below an item's 400 KB. */
export const MAX_MEMBER_CHANGES = 1_000;

export const isTeamItem = (item: StoredItem | undefined): boolean => item?.kind === 'team';

export const toTeam = (item: StoredItem): TeamItem => {
  const t = item as unknown as TeamItem;
  return {
    id: t.id,
    name: t.name,
    handle: t.handle,
    ...(typeof t.description === 'string' ? { description: t.description } : {}),
    createdAt: t.createdAt,
    updatedAt: t.updatedAt,
    ...(t.deleting ? { deleting: t.deleting } : {}),
  };
};

/** A live team (not being deleted), or undefined. `preread`: items read with the credential. */
export async function getTeam(ws: string, id: string, preread?: Prereads): Promise<TeamItem | undefined> {
  const key = keys.team(ws, id);
  const { Item } = prereadFor(preread, key) ?? (await getItem({ TableName: tableName(), Key: key, ConsistentRead: true }));
  return Item && isTeamItem(Item) && !Item.deleting ? toTeam(Item) : undefined;
}

/** The live teams among `ids`, by id. */
export async function teamsByIds(ws: string, ids: readonly string[]): Promise<Map<string, TeamItem>> {
  if (ids.length === 0) return new Map();
  const found = await batchGetByKey([...new Set(ids)].map((id) => keys.team(ws, id)));
  const out = new Map<string, TeamItem>();
  for (const item of found.values()) if (isTeamItem(item) && !item.deleting) out.set(String(item.id), toTeam(item));
  return out;
}

/** The ids of the live teams with these names (case-insensitive), by lower-cased name. */
export async function teamIdsByNames(ws: string, names: readonly string[]): Promise<Map<string, string>> {
  if (names.length === 0) return new Map();
  const wanted = [...new Set(names.map(nameKey))];
  const found = await batchGetByKey(wanted.map((n) => keys.teamName(ws, n)));
  const out = new Map<string, string>();
  for (const n of wanted) {
    const guard = found.get(itemKeyId(keys.teamName(ws, n)));
    if (guard) out.set(n, String(guard.teamId));
  }
  return out;
}

/** The team's name and handle as a write gives them, and where in the body each was. */
interface TeamFields {
  name?: string | undefined;
  handle?: string | undefined;
  /** null clears it. */
  description?: string | null | undefined;
}

const guardPut = (key: { pk: string; sk: string }, kind: string, teamId: string): TxItem => ({
  Put: { TableName: tableName(), Item: { ...key, kind, teamId }, ConditionExpression: 'attribute_not_exists(pk)' },
});
const guardDelete = (key: { pk: string; sk: string }, teamId: string): TxItem => ({
  Delete: { TableName: tableName(), Key: key, ConditionExpression: 'teamId = :t', ExpressionAttributeValues: { ':t': teamId } },
});

/** Refuses a name or handle another team holds (409 at its place in the body). */
async function checkFree(ws: string, fields: TeamFields, own: string | undefined, path: Path): Promise<void> {
  const wanted = [
    ...(fields.name !== undefined ? [{ key: keys.teamName(ws, nameKey(fields.name)), what: `named '${fields.name}'`, at: 'name' }] : []),
    ...(fields.handle !== undefined ? [{ key: keys.teamHandle(ws, fields.handle), what: `with the handle '${fields.handle}'`, at: 'handle' }] : []),
  ];
  if (wanted.length === 0) return;
  const found = await batchGetByKey(
    wanted.map((w) => w.key),
    { consistent: true },
  );
  for (const w of wanted) {
    const guard = found.get(itemKeyId(w.key));
    if (guard && guard.teamId !== own)
      throw new Conflict(`Another team ${w.what} exists in this workspace; team names and handles are unique.`, pointer([...path, w.at]));
  }
}

export async function createTeam(
  ws: string,
  fields: { name: string; handle: string; description?: string | undefined },
  scope?: WriteScope,
): Promise<TeamItem> {
  const id = randomUUID();
  return transactOnce(
    'createTeam',
    async () => {
      await checkFree(ws, fields, undefined, ['data', 'fields']);
      const now = new Date().toISOString();
      const team: TeamItem = {
        id,
        name: fields.name,
        handle: fields.handle,
        ...(fields.description !== undefined ? { description: fields.description } : {}),
        createdAt: now,
        updatedAt: now,
      };
      const items: TxItem[] = [
        {
          Put: {
            TableName: tableName(),
            Item: { ...keys.team(ws, id), kind: 'team', ...team, gsi1pk: keys.teamsOf(ws), gsi1sk: keys.listPosition(now, id) },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        guardPut(keys.teamName(ws, nameKey(fields.name)), 'teamName', id),
        guardPut(keys.teamHandle(ws, fields.handle), 'teamHandle', id),
      ];
      return { items, result: team };
    },
    scope,
  );
}

/** The ids of a team's members: every membership, or with `limit` the first that many (one Query page). */
async function teamMemberIds(ws: string, teamId: string, limit?: number): Promise<string[]> {
  const ids: string[] = [];
  for await (const page of partitionPages(ws, keys.teamMembershipsPrefix(teamId), ['memberId'], limit)) {
    ids.push(...page.map((i) => String(i.memberId)));
    if (limit !== undefined) break;
  }
  return ids;
}

/** The writes that make `memberId` a member of the team, or stop it being one. */
function membershipWrites(ws: string, teamId: string, memberId: string, change: 'add' | 'remove', now: string): TxItem[] {
  const member = { TableName: tableName(), Key: keys.member(ws, memberId) };
  if (change === 'add') {
    return [
      {
        Put: {
          TableName: tableName(),
          Item: {
            ...keys.teamMembership(ws, teamId, memberId),
            kind: 'teamMembership',
            teamId,
            memberId,
            addedAt: now,
            gsi2pk: keys.teamMembersOf(ws, teamId),
            gsi2sk: keys.listPosition(now, memberId),
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      {
        Update: {
          ...member,
          UpdateExpression: 'ADD teamIds :t',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':t': new Set([teamId]) },
        },
      },
    ];
  }
  return [
    { Delete: { TableName: tableName(), Key: keys.teamMembership(ws, teamId, memberId), ConditionExpression: 'attribute_exists(pk)' } },
    { Update: { ...member, UpdateExpression: 'DELETE teamIds :t', ExpressionAttributeValues: { ':t': new Set([teamId]) } } },
  ];
}

/** A change of a team's members: the members (by id) that end up in the team, given the ones in it now. */
export type MembersChange = (current: readonly string[]) => string[];

/**
 * Updates a live team: its fields (a new name or handle must be free) and its members (`members`
 * gets the current member ids and returns the wanted ones). The fields and the first
 * MEMBERS_PER_TRANSACTION member changes are one transaction, conditioned on the version read; the
 * rest follow in steps (see the header).
 */
export async function updateTeam(ws: string, id: string, change: { fields?: TeamFields; members?: MembersChange }, scope?: WriteScope): Promise<TeamItem> {
  const until = deadlineOf(Date.now(), scope?.deadline);
  const leaseUntil = until + LAMBDA_EXTRA_MS;
  let pending: MemberChange[] = [];
  let recorded: HeldWork | undefined;
  const updated = await transact(
    'updateTeam',
    async () => {
      const [team, earlier] = await Promise.all([getTeam(ws, id), change.members ? workAbout(ws, 'teamMembers', `${id}:`) : []]);
      if (!team) throw new NotFound('team', id);
      // An earlier change of its members still pending (a request cut short) lands before this one.
      await finishEarlier(
        earlier,
        (w) => finishTeamMembers(ws, id, w.members ?? [], until),
        { label: 'updateTeam', resource: `the members of team ${id}` },
        leaseUntil,
      );
      const fields = change.fields ?? {};
      const renamed = fields.name !== undefined && nameKey(fields.name) !== nameKey(team.name) ? fields.name : undefined;
      const rehandled = fields.handle !== undefined && fields.handle !== team.handle ? fields.handle : undefined;
      await checkFree(ws, { name: renamed, handle: rehandled }, id, ['data', 'fields']);
      const now = new Date().toISOString();
      const next: TeamItem = {
        ...team,
        ...(fields.name !== undefined ? { name: fields.name } : {}),
        ...(fields.handle !== undefined ? { handle: fields.handle } : {}),
        updatedAt: now,
      };
      if (fields.description === null) delete next.description;
      else if (fields.description !== undefined) next.description = fields.description;
      const current = change.members ? await teamMemberIds(ws, id) : [];
      const wanted = change.members ? new Set(change.members(current)) : new Set(current);
      const had = new Set(current);
      const memberChanges: MemberChange[] = [
        ...[...wanted].filter((m) => !had.has(m)).map((m): MemberChange => [m, 'add']),
        ...current.filter((m) => !wanted.has(m)).map((m): MemberChange => [m, 'remove']),
      ];
      if (memberChanges.length > MAX_MEMBER_CHANGES)
        throw new InvalidInput(
          `This update would add or remove ${memberChanges.length} members; one request may change at most ${MAX_MEMBER_CHANGES}: split it into several.`,
          pointer(['data', 'patch']),
        );
      const first = memberChanges.slice(0, MEMBERS_PER_TRANSACTION);
      pending = memberChanges.slice(MEMBERS_PER_TRANSACTION);
      // The rest, recorded with the first step: finished by this request or, if it is cut short, by the sweeper.
      const work = pending.length ? workPut(ws, 'teamMembers', `${id}:${randomUUID()}`, { leaseUntil, members: pending }) : undefined;
      recorded = work?.held;
      const items: TxItem[] = [
        {
          Update: {
            TableName: tableName(),
            Key: keys.team(ws, id),
            UpdateExpression: `SET #n = :n, handle = :h, updatedAt = :u${next.description !== undefined ? ', description = :d' : ''}${next.description === undefined ? ' REMOVE description' : ''}`,
            ConditionExpression: 'kind = :kind AND attribute_not_exists(deleting) AND updatedAt = :was',
            ExpressionAttributeNames: { '#n': 'name' },
            ExpressionAttributeValues: {
              ':kind': 'team',
              ':n': next.name,
              ':h': next.handle,
              ':u': now,
              ':was': team.updatedAt,
              ...(next.description !== undefined ? { ':d': next.description } : {}),
            },
          },
        },
        ...(renamed !== undefined
          ? [guardDelete(keys.teamName(ws, nameKey(team.name)), id), guardPut(keys.teamName(ws, nameKey(renamed)), 'teamName', id)]
          : []),
        ...(rehandled !== undefined ? [guardDelete(keys.teamHandle(ws, team.handle), id), guardPut(keys.teamHandle(ws, rehandled), 'teamHandle', id)] : []),
        ...first.flatMap(([memberId, c]) => membershipWrites(ws, id, memberId, c, now)),
        ...(work ? [work.put] : []),
      ];
      return { items, result: next };
    },
    scope?.deadline,
  );
  if (recorded) await carryOn(recorded, () => finishTeamMembers(ws, id, pending, until));
  return updated;
}

/**
 * The rest of a large membership change, its pending work: a step of MEMBERS_PER_TRANSACTION at a
 * time. True once every change is made or the team is gone; Unfinished when `until` comes first.
 */
export async function finishTeamMembers(ws: string, teamId: string, changes: readonly MemberChange[], until: number): Promise<boolean> {
  const detail = () => `Team ${teamId} is updated; the rest of its ${changes.length + MEMBERS_PER_TRANSACTION} member changes follow without another request.`;
  for (let i = 0; i < changes.length; i += MEMBERS_PER_TRANSACTION) {
    inTime(until, detail);
    await orUnfinished(() => applyMemberChanges(ws, teamId, changes.slice(i, i + MEMBERS_PER_TRANSACTION), until), detail);
  }
  return true;
}

/**
 * One step of a large membership change: the changes still to make (read again, so work finished
 * twice does not repeat them), in one transaction with the team still live; none once it is gone.
 */
async function applyMemberChanges(ws: string, teamId: string, changes: readonly MemberChange[], until: number): Promise<void> {
  await transact(
    'updateTeamMembers',
    async () => {
      // Only this step's memberships are read (by key), not the team's every one.
      const [team, memberships] = await Promise.all([
        getTeam(ws, teamId),
        batchGetByKey(
          changes.map(([memberId]) => keys.teamMembership(ws, teamId, memberId)),
          { consistent: true },
        ),
      ]);
      if (!team) return { items: [], result: undefined };
      const now = new Date().toISOString();
      const current = new Set([...memberships.values()].map((m) => String(m.memberId)));
      const todo = changes.filter(([memberId, c]) => (c === 'add') !== current.has(memberId));
      const items = todo.flatMap(([memberId, c]) => membershipWrites(ws, teamId, memberId, c, now));
      if (items.length === 0) return { items: [], result: undefined };
      items.push({
        ConditionCheck: { TableName: tableName(), Key: keys.team(ws, teamId), ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(deleting)' },
      });
      return { items, result: undefined };
    },
    until,
  );
}

/**
 * Deletes a team and every membership of it (see the header). NotFound when no such team exists;
 * a team whose delete stopped half-way is finished.
 */
export async function deleteTeam(ws: string, id: string, scope?: WriteScope): Promise<void> {
  const until = deadlineOf(Date.now(), scope?.deadline);
  const leaseUntil = until + LAMBDA_EXTRA_MS;
  // Stepwise: the pending work this request recorded (none: an earlier delete's, carried on).
  let stepwise: { held?: HeldWork } | undefined;
  await transact(
    'deleteTeam',
    async () => {
      stepwise = undefined;
      const { Item } = await getItem({ TableName: tableName(), Key: keys.team(ws, id), ConsistentRead: true });
      if (!Item || !isTeamItem(Item)) throw new NotFound('team', id);
      const team = toTeam(Item);
      if (team.deleting) {
        stepwise = {};
        return { items: [], result: undefined };
      }
      const now = new Date().toISOString();
      const guards = [guardDelete(keys.teamName(ws, nameKey(team.name)), id), guardDelete(keys.teamHandle(ws, team.handle), id)];
      // One more than a transaction takes says whether it takes them all.
      const members = await teamMemberIds(ws, id, MEMBERS_PER_TRANSACTION + 1);
      if (members.length <= MEMBERS_PER_TRANSACTION) {
        return {
          items: [
            {
              Delete: {
                TableName: tableName(),
                Key: keys.team(ws, id),
                ConditionExpression: 'kind = :kind AND attribute_not_exists(deleting)',
                ExpressionAttributeValues: { ':kind': 'team' },
              },
            },
            ...guards,
            ...members.flatMap((m) => membershipWrites(ws, id, m, 'remove', now)),
          ],
          result: undefined,
        };
      }
      const work = workPut(ws, 'deleteTeam', id, { leaseUntil });
      stepwise = { held: work.held };
      return {
        items: [
          work.put,
          {
            Update: {
              TableName: tableName(),
              Key: keys.team(ws, id),
              UpdateExpression: 'SET deleting = :now REMOVE gsi1pk, gsi1sk',
              ConditionExpression: 'kind = :kind AND attribute_not_exists(deleting)',
              ExpressionAttributeValues: { ':now': now, ':kind': 'team' },
            },
          },
          ...guards,
        ],
        result: undefined,
      };
    },
    scope?.deadline,
  );
  if (!stepwise) return;
  await carryOn(stepwise.held ?? (await earlierWork(ws, 'deleteTeam', id)), () => finishTeamDelete(ws, id, until));
}

/**
 * Second half of a stepwise team delete, its pending work: its memberships a step at a time, each
 * step reading them afresh (another finisher may remove some first), then the team item. True once
 * the team is gone; Unfinished when `until` comes first.
 */
export async function finishTeamDelete(ws: string, id: string, until: number): Promise<boolean> {
  const detail = () => `Team ${id} is deleted; its memberships are being removed and follow without another request.`;
  for (let done = false; !done;) {
    inTime(until, detail);
    done = await orUnfinished(
      () =>
        transact(
          'deleteTeamMembers',
          async () => {
            const now = new Date().toISOString();
            const step = await teamMemberIds(ws, id, MEMBERS_PER_TRANSACTION);
            return { items: step.flatMap((m) => membershipWrites(ws, id, m, 'remove', now)), result: step.length === 0 };
          },
          until,
        ),
      detail,
    );
  }
  try {
    await deleteItem({ TableName: tableName(), Key: keys.team(ws, id), ConditionExpression: 'attribute_exists(deleting)' });
  } catch (err) {
    // Already gone (a concurrent finisher): nothing left to do.
    if (!isConditionFailed(err)) throw err;
  }
  return true;
}

/** Members by id (any state), by id. */
export async function membersByIds(ws: string, ids: readonly string[]): Promise<Map<string, Member>> {
  if (ids.length === 0) return new Map();
  const found = await batchGetByKey([...new Set(ids)].map((id) => keys.member(ws, id)));
  const out = new Map<string, Member>();
  for (const item of found.values()) if (item.kind === 'member') out.set(String(item.id), toMember(item));
  return out;
}
