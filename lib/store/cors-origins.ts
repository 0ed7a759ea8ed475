// Origins that may call the token endpoint and the API from a browser: the origins of the
// redirect URIs of authorization-code applications and of self-registered clients. A CORS preflight
// carries no token, so it is answered from this one global look-up; the item lists the clients that
// registered the origin, and goes away with the last application among them (lib/store/applications.ts
// keeps it in step; a self-registered client is never deleted, lib/store/dynamic-clients.ts).
//
// Item: { kind: 'corsOrigin', origin, clientIds: string set }
import { getItem } from './calls.ts';
import * as keys from './keys.ts';
import { tableName } from './table.ts';
import type { TransactItem } from './workspaces.ts';

/** Transaction items that add (or remove) a client's registration of each origin. */
export function originRegistrations(origins: readonly string[], clientId: string, change: 'add' | 'remove'): TransactItem[] {
  return origins.map((origin) => ({
    Update: {
      TableName: tableName(),
      Key: keys.corsOrigin(origin),
      UpdateExpression: change === 'add' ? 'ADD clientIds :c SET kind = :kind, origin = :origin' : 'DELETE clientIds :c',
      ExpressionAttributeValues: change === 'add' ? { ':c': new Set([clientId]), ':kind': 'corsOrigin', ':origin': origin } : { ':c': new Set([clientId]) },
    },
  }));
}

/** Whether any application registered a redirect URI on this origin. */
export async function isRegisteredOrigin(origin: string): Promise<boolean> {
  const { Item } = await getItem({ TableName: tableName(), Key: keys.corsOrigin(origin), ConsistentRead: true });
  const clientIds = (Item as { clientIds?: unknown } | undefined)?.clientIds;
  return clientIds instanceof Set && clientIds.size > 0;
}
