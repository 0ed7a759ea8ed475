// Field values that name other records, resolved against the workspace: on write, an owner or a
// creator given by e-mail, by id, or by both (which must then name the same member), and an
// entity's tags and teams given by id or by name (a tag name the workspace has no value of creates
// one, in the write's own transaction); on read, an entity's tags and teams as they are now (their
// current names, values and teams deleted since left out, a tag replaced on delete read as its
// replacement).
import { randomUUID } from 'node:crypto';
import { batchGetByKey, itemKeyId } from './batch.ts';
import { TAG_VALUE_KIND, TAG_VALUE_REPLACED_KIND, newTagValueItems, toSelectValue } from './field-values.ts';
import * as keys from './keys.ts';
import { getMember, getMemberByEmail, type Member } from './members.ts';
import type { Prereads } from './preread.ts';
import { isTeamItem } from './teams.ts';
import type { TxItem } from './tx.ts';
import type { FieldWrite, ReferenceWrite } from '../domain/entity-fields.ts';
import { InvalidInput, pointer, type Path } from '../domain/errors.ts';
import { colorFor, MAX_NEW_TAGS_PER_WRITE, nameKey, TAGS_FIELD } from '../domain/field-values.ts';
import { invalid } from '../domain/input.ts';
import type { MemberInput, ValueRef } from '../domain/schemas/field-values.ts';
import { outcome, settle } from '../settle.ts';

/** The active member a MemberInput names, or InvalidInput located at what named no one. */
async function resolveMember(ws: string, ref: MemberInput, path: Path, preread?: Prereads): Promise<Member> {
  const [byId, byEmail] = await Promise.all([
    ref.id === undefined ? undefined : getMember(ws, ref.id, preread),
    ref.email === undefined ? undefined : getMemberByEmail(ws, ref.email),
  ]);
  if (ref.id !== undefined && !byId?.active) invalid([...path, 'id'], `No active member with id ${ref.id} in this workspace.`);
  if (ref.email !== undefined && !byEmail?.active) invalid([...path, 'email'], `No active member with e-mail '${ref.email.slice(0, 254)}' in this workspace.`);
  if (byId && byEmail && byId.id !== byEmail.id) {
    invalid(path, `The id ${byId.id} and the e-mail '${ref.email}' name two different members; give one, or both of the same member.`);
  }
  return (byId ?? byEmail)!;
}

/**
 * The member fields of a write (`owner`, `creator`) resolved to {id, email} of an active member;
 * refusals in the fields' order. `preread`: members by id read ahead (lib/http/prefetch.ts).
 */
export async function resolveMembers(ws: string, members: FieldWrite['members'], preread?: Prereads): Promise<Record<string, { id: string; email: string }>> {
  const found = await Promise.all(members.map(({ ref, path }) => settle(resolveMember(ws, ref, path, preread))));
  return Object.fromEntries(
    members.map(({ field }, i) => {
      const m = outcome(found[i]!);
      return [field, { id: m.id, email: m.email }];
    }),
  );
}

/** The values to store, with `owner` and `creator` resolved to {id, email} of an active member (tags and teams: resolveReferences). */
export async function resolveFieldRefs(ws: string, write: FieldWrite): Promise<Record<string, unknown>> {
  return { ...write.values, ...(await resolveMembers(ws, write.members)) };
}

/** A tag or a team as an entity stores it. */
interface NamedRef {
  id: string;
  name: string;
}

/** What the tags and teams of an entity write resolve to. */
interface ResolvedReferences {
  /** Whole values (`data.fields`, a patch's `set`), by field. */
  values: Record<string, NamedRef[]>;
  /** The items of a patch's addItems/removeItems on tags or teams, by the operation's index. */
  opItems: Map<number, NamedRef[]>;
  /** Puts of the tag values the write creates: they go in its transaction. */
  items: TxItem[];
}

const refAt = (ref: ReferenceWrite, i: number, part?: 'id' | 'name') => pointer([...ref.path, i, ...(part ? [part] : [])]);

/**
 * Resolves the tags and teams of an entity write (lib/domain/entity-fields.ts ReferenceWrite): by id
 * a live value or team; by name a tag value (case-insensitive; a new name creates one, at most
 * MAX_NEW_TAGS_PER_WRITE per write) or a team; both given must name the same one. A removeItems
 * item that names nothing removes nothing. Read consistently: it runs inside the write's
 * transaction build, so a value created or deleted meanwhile is seen on the rebuild.
 */
export async function resolveReferences(ws: string, refs: readonly ReferenceWrite[]): Promise<ResolvedReferences> {
  const out: ResolvedReferences = { values: {}, opItems: new Map(), items: [] };
  if (refs.length === 0) return out;
  const wanted: Array<{ pk: string; sk: string }> = [];
  for (const ref of refs) {
    for (const item of ref.items) {
      if (ref.field === 'tags') {
        if (item.id !== undefined) wanted.push(keys.fieldValue(ws, TAGS_FIELD, item.id));
        if (item.name !== undefined) wanted.push(keys.fieldValueName(ws, TAGS_FIELD, nameKey(item.name)));
      } else {
        if (item.id !== undefined) wanted.push(keys.team(ws, item.id));
        if (item.name !== undefined) wanted.push(keys.teamName(ws, nameKey(item.name)));
      }
    }
  }
  // Each key once: BatchGetItem refuses a list with duplicates.
  const found = await batchGetByKey([...new Map(wanted.map((k) => [itemKeyId(k), k])).values()], { consistent: true });
  // Teams found by name: their items, for their names as they are.
  const teamIdsByName = [...found.values()].filter((g) => g.kind === 'teamName').map((g) => String(g.teamId));
  const teamsByName = await batchGetByKey(
    teamIdsByName.filter((id) => !found.has(itemKeyId(keys.team(ws, id)))).map((id) => keys.team(ws, id)),
    { consistent: true },
  );
  const get = (key: { pk: string; sk: string }) => found.get(itemKeyId(key)) ?? teamsByName.get(itemKeyId(key));
  const created = new Map<string, NamedRef>();
  // New values list in the order the write named them: each a millisecond after the one before.
  const now = Date.now();

  const tagOf = (ref: ReferenceWrite, item: ValueRef, i: number): NamedRef | undefined => {
    const byId = item.id !== undefined ? get(keys.fieldValue(ws, TAGS_FIELD, item.id)) : undefined;
    if (item.id !== undefined && byId?.kind !== TAG_VALUE_KIND) {
      if (ref.removing) return undefined;
      throw new InvalidInput(
        `No tag ${item.id} in this workspace (GET /v2/entities/fields/tags/values lists them); name a tag by its name to create it.`,
        refAt(ref, i, 'id'),
      );
    }
    if (byId) {
      const value = toSelectValue(byId);
      if (item.name !== undefined && nameKey(item.name) !== nameKey(value.name))
        throw new InvalidInput(`Tag ${value.id} is named '${value.name}', not '${item.name.slice(0, 100)}'.`, refAt(ref, i, 'name'));
      return { id: value.id, name: value.name };
    }
    const name = item.name!;
    const guard = get(keys.fieldValueName(ws, TAGS_FIELD, nameKey(name)));
    if (guard) return { id: String(guard.valueId), name: String(guard.name) };
    if (ref.removing) return undefined;
    const known = created.get(nameKey(name));
    if (known) return known;
    if (created.size === MAX_NEW_TAGS_PER_WRITE) {
      throw new InvalidInput(
        `A write may create at most ${MAX_NEW_TAGS_PER_WRITE} new tags; create the others first (POST /v2/entities/fields/tags/values) or in another write.`,
        refAt(ref, i, 'name'),
      );
    }
    const id = randomUUID();
    const value = { id, name, color: colorFor(id), createdAt: new Date(now + created.size).toISOString() };
    out.items.push(...newTagValueItems(ws, value));
    created.set(nameKey(name), { id, name });
    return { id, name };
  };

  const teamOf = (ref: ReferenceWrite, item: ValueRef, i: number): NamedRef | undefined => {
    const guard = item.name !== undefined ? get(keys.teamName(ws, nameKey(item.name))) : undefined;
    const id = item.id ?? (typeof guard?.teamId === 'string' ? guard.teamId : undefined);
    const team = id !== undefined ? get(keys.team(ws, id)) : undefined;
    if (!team || !isTeamItem(team) || team.deleting) {
      if (ref.removing) return undefined;
      const what = item.id !== undefined ? `No team ${item.id}` : `No team named '${item.name!.slice(0, 100)}'`;
      throw new InvalidInput(`${what} in this workspace (GET /v2/teams lists them).`, refAt(ref, i, item.id !== undefined ? 'id' : 'name'));
    }
    if (item.id !== undefined && item.name !== undefined && nameKey(item.name) !== nameKey(String(team.name))) {
      throw new InvalidInput(`Team ${item.id} is named '${String(team.name)}', not '${item.name.slice(0, 100)}'.`, refAt(ref, i, 'name'));
    }
    return { id: String(team.id), name: String(team.name) };
  };

  for (const ref of refs) {
    const resolved: NamedRef[] = [];
    ref.items.forEach((item, i) => {
      const r = ref.field === 'tags' ? tagOf(ref, item, i) : teamOf(ref, item, i);
      if (r && !resolved.some((x) => x.id === r.id)) resolved.push(r);
    });
    if (ref.op !== undefined) out.opItems.set(ref.op, resolved);
    else out.values[ref.field] = resolved;
  }
  return out;
}

/** Hops a chain of replacements is followed (a value replaced by one replaced in turn, …). */
export const MAX_REPLACEMENTS = 10;

/** The ids of a stored list of references by id (an entity's tags or teams). */
export const idsIn = (value: unknown): string[] =>
  Array.isArray(value) ? value.map((v) => (v as { id?: unknown } | null)?.id).filter((id): id is string => typeof id === 'string') : [];

/**
 * Records (entities) with their tags and teams as they are now: each by its current name, those
 * deleted since left out (a list left empty is no value), a tag deleted with a replacement read as
 * the replacement (each once). One BatchGetItem for the whole page (more only to follow
 * replacements); none when no record has tags or teams.
 */
export async function withCurrentRefs<T extends { fields: Record<string, unknown> }>(ws: string, records: readonly T[]): Promise<T[]> {
  const tagIds = new Set(records.flatMap((r) => idsIn(r.fields.tags)));
  const teamIds = new Set(records.flatMap((r) => idsIn(r.fields.teams)));
  if (tagIds.size === 0 && teamIds.size === 0) return [...records];
  const tags = new Map<string, NamedRef | undefined>();
  const teams = new Map<string, NamedRef>();
  const found = await batchGetByKey([...[...tagIds].map((id) => keys.fieldValue(ws, TAGS_FIELD, id)), ...[...teamIds].map((id) => keys.team(ws, id))]);
  for (const item of found.values()) {
    if (isTeamItem(item) && !item.deleting) teams.set(String(item.id), { id: String(item.id), name: String(item.name) });
  }
  // Replacements: a replaced tag reads as what replaced it, followed hop by hop.
  const replacedBy = new Map<string, string>();
  let round = [...tagIds];
  for (let hop = 0; round.length > 0 && hop <= MAX_REPLACEMENTS; hop++) {
    const items = hop === 0 ? found : await batchGetByKey(round.map((id) => keys.fieldValue(ws, TAGS_FIELD, id)));
    const next: string[] = [];
    for (const id of round) {
      const item = items.get(itemKeyId(keys.fieldValue(ws, TAGS_FIELD, id)));
      if (item?.kind === TAG_VALUE_KIND) tags.set(id, { id, name: String(item.name) });
      else if (item?.kind === TAG_VALUE_REPLACED_KIND && typeof item.replacedBy === 'string') {
        replacedBy.set(id, item.replacedBy);
        if (!tags.has(item.replacedBy) && !replacedBy.has(item.replacedBy)) next.push(item.replacedBy);
      } else tags.set(id, undefined);
    }
    round = next;
  }
  const currentTag = (id: string): NamedRef | undefined => {
    let at = id;
    for (let hop = 0; hop <= MAX_REPLACEMENTS; hop++) {
      const next = replacedBy.get(at);
      if (next === undefined) return tags.get(at);
      at = next;
    }
    return undefined;
  };
  const current = (value: unknown, of: (id: string) => NamedRef | undefined): NamedRef[] => {
    const out: NamedRef[] = [];
    for (const id of idsIn(value)) {
      const ref = of(id);
      if (ref && !out.some((r) => r.id === ref.id)) out.push(ref);
    }
    return out;
  };
  return records.map((r) => {
    if (!('tags' in r.fields) && !('teams' in r.fields)) return r;
    const fields = { ...r.fields };
    for (const [field, of] of [
      ['tags', currentTag],
      ['teams', (id: string) => teams.get(id)],
    ] as const) {
      if (!(field in fields)) continue;
      const now = current(fields[field], of);
      if (now.length) fields[field] = now;
      else delete fields[field];
    }
    return { ...r, fields };
  });
}
