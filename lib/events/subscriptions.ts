// Webhook subscriptions as the HTTP handlers read and remove them, under Productboard's visibility
// rule (an access token sees only its own application's subscriptions); creating one, which checks
// the destination and seals the secrets, is ./subscription-create.ts, so the functions that only
// read or remove carry neither the destination guard nor the service secret.
import { NotFound } from '../domain/errors.ts';
import { visibleTo, type WebhookSubscription } from '../domain/webhooks.ts';
import { webhooksAfter, type Slice } from '../store/pages.ts';
import { deleteWebhook, getWebhook, type StoredWebhook } from '../store/webhooks.ts';

export interface Caller {
  workspaceId: string;
  scopes: ReadonlySet<string>;
  /** Set for an access token: the application that minted it. */
  clientId?: string | undefined;
}

const notFound = (id: string) => new NotFound('webhook subscription', id);

/** The stored subscription without what is never shown (sealed secrets, failure counter). */
export function publicPart(w: StoredWebhook): WebhookSubscription {
  return {
    id: w.id,
    name: w.name,
    events: w.events,
    url: w.url,
    version: w.version,
    status: w.status,
    createdAt: w.createdAt,
    ...(w.createdByClient ? { createdByClient: w.createdByClient } : {}),
  };
}

export async function findSubscription(caller: Caller, id: string): Promise<WebhookSubscription> {
  const w = await getWebhook(caller.workspaceId, id);
  if (!w || !visibleTo(w, caller)) throw notFound(id);
  return publicPart(w);
}

export async function removeSubscription(caller: Caller, id: string): Promise<void> {
  await findSubscription(caller, id);
  if (!(await deleteWebhook(caller.workspaceId, id))) throw notFound(id);
}

/** Up to `count` subscriptions the caller sees, oldest first, after list position `after`. */
export async function subscriptionsAfter(caller: Caller, after: string | undefined, count: number): Promise<Slice<WebhookSubscription>> {
  const page = await webhooksAfter(caller.workspaceId, after, count, (w) => visibleTo(w, caller));
  return { items: page.map(({ record, position }) => ({ record: publicPart(record), position })) };
}
