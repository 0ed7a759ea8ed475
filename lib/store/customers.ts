// Users (customer entities) by e-mail: a look-up item per user with an e-mail field
// (keys.customerEmail), written and deleted in the same transaction as the user's e-mail, so a
// customer given by e-mail (a note's customer) is found with one Query, case-insensitively.
import { getEntity, type EntityItem } from './entities.ts';
import * as keys from './keys.ts';
import { partitionItems } from './query.ts';
import { tableName } from './table.ts';
import type { TxItem } from './tx.ts';
import type { Path } from '../domain/errors.ts';
import { invalid } from '../domain/input.ts';

/** The look-up address of a record's e-mail field (users only), lower-cased. */
export function customerEmailOf(e: Pick<EntityItem, 'type' | 'fields'> | undefined): string | undefined {
  const email = e?.type === 'user' ? e.fields.email : undefined;
  return typeof email === 'string' && email !== '' ? email.toLowerCase() : undefined;
}

/** The writes that move a user's look-up item from its e-mail `before` a change to its e-mail after it. */
export function customerEmailWrites(
  ws: string,
  after: Pick<EntityItem, 'id' | 'type' | 'fields'>,
  before: Pick<EntityItem, 'type' | 'fields'> | undefined,
): TxItem[] {
  const was = customerEmailOf(before);
  const now = customerEmailOf(after);
  if (was === now) return [];
  const items: TxItem[] = [];
  if (was !== undefined) items.push({ Delete: { TableName: tableName(), Key: keys.customerEmail(ws, was, after.id) } });
  if (now !== undefined)
    items.push({ Put: { TableName: tableName(), Item: { ...keys.customerEmail(ws, now, after.id), kind: 'customerEmail', email: now, userId: after.id } } });
  return items;
}

/** The live users of a workspace whose e-mail is `email` (compared case-insensitively). */
export async function usersByEmail(ws: string, email: string): Promise<EntityItem[]> {
  const wanted = email.toLowerCase();
  const items = await partitionItems(ws, keys.customerEmailPrefix(wanted));
  const users = await Promise.all(items.filter((it) => it.email === wanted).map((it) => getEntity(ws, String(it.userId))));
  return users.filter((u): u is EntityItem => u !== undefined && customerEmailOf(u) === wanted);
}

/** A note's customer as a request names it: a user or a company by id, or a user by e-mail. */
interface CustomerTargetInput {
  id?: string | undefined;
  email?: string | undefined;
  type?: 'user' | 'company' | undefined;
}

/**
 * The refusal of a customer named by e-mail for a token without users:pii:read: whether a user has
 * the e-mail (and which) is what that scope guards, so it comes before any look-up and reads the
 * same whether or not a user has it.
 */
export const CUSTOMER_EMAIL_NEEDS_PII =
  'Naming a customer by e-mail tells whether a user has that e-mail, which takes the users:pii:read scope; this token lacks it. Name the customer by id, or use a token with users:pii:read.';

/**
 * The customer a request names, as lib/store/notes.ts takes it (`path` locates the target in the
 * request): by id as given (the note write checks it), or the one live user whose e-mail matches
 * case-insensitively — none, or several, is InvalidInput at the e-mail, and so is an e-mail at all
 * when the reader lacks users:pii:read (`pii`).
 */
export async function customerTarget(
  ws: string,
  target: CustomerTargetInput,
  path: Path,
  pii: boolean,
): Promise<{ id: string; type?: string | undefined; path: Path }> {
  if (target.id !== undefined) return { id: target.id, type: target.type, path };
  if (!pii) invalid([...path, 'email'], CUSTOMER_EMAIL_NEEDS_PII);
  const email = target.email ?? '';
  const users = await usersByEmail(ws, email);
  if (users.length === 0) invalid([...path, 'email'], `No user with e-mail '${email}' in this workspace.`);
  if (users.length > 1) invalid([...path, 'email'], `${users.length} users have the e-mail '${email}'; give the customer's id instead.`);
  return { id: users[0]!.id, type: 'user', path };
}
