// Customers found by e-mail (the MCP server's create_note names a customer by id or e-mail). No index
// holds users by e-mail: the workspace's users are read from the list by type (GSI1), only their
// ids and e-mail addresses, and compared case-insensitively.
import { keys } from './keys.ts';
import { queryAll } from './query.ts';

/** The ids of the live users whose `email` field is this address (case-insensitive), oldest first. */
export async function usersWithEmail(ws: string, email: string): Promise<string[]> {
  const wanted = email.trim().toLowerCase();
  const items = await queryAll({
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :p',
    ExpressionAttributeValues: { ':p': keys.entitiesOfType(ws, 'user') },
    ProjectionExpression: 'id, #f.#e, deleting',
    ExpressionAttributeNames: { '#f': 'fields', '#e': 'email' },
  });
  return items
    .filter((it) => !it.deleting && typeof (it.fields as { email?: unknown } | undefined)?.email === 'string')
    .filter((it) => ((it.fields as { email: string }).email).toLowerCase() === wanted)
    .map((it) => it.id as string);
}
