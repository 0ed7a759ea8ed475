import { randomUUID } from 'node:crypto';
import { getItem, updateItem } from './calls.ts';
import { EmailTaken, isConditionFailed } from './errors.ts';
import * as keys from './keys.ts';
import { prereadFor, type Prereads } from './preread.ts';
import { partitionPages } from './query.ts';
import { tableName } from './table.ts';
import { putInWorkspace } from './workspaces.ts';
import { NotFound } from '../domain/errors.ts';
import type { Role } from '../domain/scopes.ts';

export interface Member {
  id: string;
  workspaceId: string;
  email: string;
  name: string;
  role: Role;
  active: boolean;
  createdAt: string;
  /** The teams the member belongs to (lib/store/teams.ts keeps them in step with the memberships). */
  teamIds?: string[];
}

/** E-mail addresses are compared lower-cased and bounded to 254 characters (RFC 5321's limit on a path). */
const MAX_EMAIL_LENGTH = 254;
const EMAIL = /^[^\s@"<>()[\]\\,;:]+@[^\s@"<>()[\]\\,;:]+\.[^\s@"<>()[\]\\,;:]+$/;

export function normalizeEmail(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_EMAIL_LENGTH) return undefined;
  const email = value.trim().toLowerCase();
  return EMAIL.test(email) ? email : undefined;
}

export const toMember = (item: Record<string, unknown>): Member => {
  const m = item as unknown as Member;
  const teamIds = (item.teamIds as Iterable<string> | undefined) ?? [];
  return {
    id: m.id,
    workspaceId: m.workspaceId,
    email: m.email,
    name: m.name,
    role: m.role,
    active: m.active,
    createdAt: m.createdAt,
    ...(item.teamIds ? { teamIds: [...teamIds].sort() } : {}),
  };
};

export async function addMember(workspaceId: string, input: { email: string; name?: string; role: Role; active: boolean }): Promise<Member> {
  const email = normalizeEmail(input.email);
  if (!email) throw new TypeError(`Not an e-mail address: ${input.email}`);
  const member: Member = {
    id: randomUUID(),
    workspaceId,
    email,
    name: input.name ?? email,
    role: input.role,
    active: input.active,
    createdAt: new Date().toISOString(),
  };
  await putInWorkspace(workspaceId, [
    // The e-mail guard makes an address unique within the workspace.
    { item: { ...keys.memberEmail(workspaceId, email), kind: 'memberEmail', memberId: member.id }, unique: true, taken: () => new EmailTaken(email) },
    {
      item: {
        ...keys.member(workspaceId, member.id),
        kind: 'member',
        ...member,
        gsi1pk: keys.membersOf(workspaceId),
        gsi1sk: keys.listPosition(member.createdAt, member.id),
      },
    },
  ]);
  return member;
}

/** `preread`: items read ahead for the request (lib/store/preread.ts), maybe this member's. */
export async function getMember(workspaceId: string, memberId: string, preread?: Prereads): Promise<Member | undefined> {
  const key = keys.member(workspaceId, memberId);
  const { Item } = prereadFor(preread, key) ?? (await getItem({ TableName: tableName(), Key: key, ConsistentRead: true }));
  return Item ? toMember(Item) : undefined;
}

export async function getMemberByEmail(workspaceId: string, emailInput: string): Promise<Member | undefined> {
  const email = normalizeEmail(emailInput);
  if (!email) return undefined;
  const { Item } = await getItem({ TableName: tableName(), Key: keys.memberEmail(workspaceId, email), ConsistentRead: true });
  return Item ? getMember(workspaceId, (Item as { memberId: string }).memberId) : undefined;
}

/** The active admin of `ws` added first (ties broken by e-mail), if any. */
export async function earliestActiveAdmin(workspaceId: string): Promise<Member | undefined> {
  let best: Member | undefined;
  for await (const page of partitionPages(workspaceId, keys.membersPrefix)) {
    for (const it of page) {
      if (it.kind !== 'member') continue;
      const m = toMember(it);
      if (m.role !== 'admin' || !m.active) continue;
      if (!best || m.createdAt < best.createdAt || (m.createdAt === best.createdAt && m.email < best.email)) best = m;
    }
  }
  return best;
}

export async function setMemberActive(workspaceId: string, emailInput: string, active: boolean): Promise<Member> {
  const member = await getMemberByEmail(workspaceId, emailInput);
  if (!member) throw new NotFound('member', emailInput, `No member ${emailInput} in workspace ${workspaceId}`);
  try {
    const { Attributes } = await updateItem({
      TableName: tableName(),
      Key: keys.member(workspaceId, member.id),
      UpdateExpression: 'SET active = :a',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':a': active },
      ReturnValues: 'ALL_NEW',
    });
    return toMember(Attributes!);
  } catch (err) {
    if (isConditionFailed(err)) throw new NotFound('member', emailInput, `No member ${emailInput}`);
    throw err;
  }
}
