// Webhook subscription management as the HTTP handlers use it: validate (shape, event types, the
// caller's right to read what the events report on, the destination), seal the secrets, store, and
// apply Productboard's visibility rule (an access token sees only its own application's
// subscriptions). Refusals are typed errors located in the request.
import { randomUUID } from 'node:crypto';
import { InputRejected } from '../domain/applications.ts';
import { parseWebhookInput, resourcesRead, visibleTo, type WebhookSubscription } from '../domain/webhooks.ts';
import { serviceKeys } from '../auth/service-key.ts';
import { config } from '../config.ts';
import { createWebhook, deleteWebhook, getWebhook, webhooksAfter, WebhookStoreError, type StoredWebhook } from '../store/webhooks.ts';
import { sealContext } from './deliver.ts';
import { checkDestination, DestinationRejected } from './destination.ts';
import { seal, webhookSecretKey } from './secret-box.ts';
import { newSigningSecret } from './signature.ts';

export interface Caller {
  workspaceId: string;
  scopes: ReadonlySet<string>;
  /** Set for an access token: the application that minted it. */
  clientId?: string | undefined;
}

/** The caller may not subscribe to events about resources it cannot read. */
export class EventScopeMissing extends Error {
  constructor(readonly scopes: string[]) {
    super(`Subscribing to these events needs the scope${scopes.length > 1 ? 's' : ''} ${scopes.join(' and ')}, which this token lacks.`);
    this.name = 'EventScopeMissing';
  }
}

/** No subscription with this id that the caller may see. */
export class SubscriptionNotFound extends Error {
  constructor(readonly id: string) {
    super(`No webhook subscription ${id} in this workspace.`);
    this.name = 'SubscriptionNotFound';
  }
}

const URL_PATH = ['data', 'fields', 'notification', 'url'];

export async function createSubscription(caller: Caller, body: unknown): Promise<{ subscription: WebhookSubscription; signingSecret: string }> {
  const input = parseWebhookInput(body);
  const missing = resourcesRead(input.events)
    .map((r) => `${r}:read`)
    .filter((s) => !caller.scopes.has(s));
  if (missing.length > 0) throw new EventScopeMissing(missing);
  try {
    await checkDestination(input.url, { allowLoopback: config.webhooksAllowLoopback });
  } catch (err) {
    if (err instanceof DestinationRejected) throw new InputRejected(err.detail, URL_PATH);
    throw err;
  }
  const id = randomUUID();
  const signingSecret = newSigningSecret();
  const key = webhookSecretKey((await serviceKeys()).secret);
  try {
    const stored = await createWebhook(caller.workspaceId, {
      id,
      name: input.name,
      events: input.events,
      url: input.url,
      version: input.version,
      createdAt: new Date().toISOString(),
      ...(caller.clientId ? { createdByClient: caller.clientId } : {}),
      sealedSigningSecret: seal(key, signingSecret, sealContext(id, 'signingSecret')),
      sealedAuthorization: input.authorization === undefined ? undefined : seal(key, input.authorization, sealContext(id, 'authorization')),
    });
    return { subscription: publicPart(stored), signingSecret };
  } catch (err) {
    if (err instanceof WebhookStoreError && err.reason === 'limitReached') throw new InputRejected(err.message, ['data']);
    throw err;
  }
}

/** The stored subscription without what is never shown (sealed secrets, failure counter). */
function publicPart(w: StoredWebhook): WebhookSubscription {
  return { id: w.id, name: w.name, events: w.events, url: w.url, version: w.version, status: w.status, createdAt: w.createdAt, ...(w.createdByClient ? { createdByClient: w.createdByClient } : {}) };
}

export async function findSubscription(caller: Caller, id: string): Promise<WebhookSubscription> {
  const w = await getWebhook(caller.workspaceId, id);
  if (!w || !visibleTo(w, caller)) throw new SubscriptionNotFound(id);
  return publicPart(w);
}

export async function removeSubscription(caller: Caller, id: string): Promise<void> {
  await findSubscription(caller, id);
  if (!(await deleteWebhook(caller.workspaceId, id))) throw new SubscriptionNotFound(id);
}

/** Up to `count` subscriptions the caller sees, oldest first, after list key `after`. */
export async function subscriptionsAfter(caller: Caller, after: string | undefined, count: number): Promise<Array<{ subscription: WebhookSubscription; key: string }>> {
  const page = await webhooksAfter(caller.workspaceId, after, count, (w) => visibleTo(w, caller));
  return page.map(({ webhook, key }) => ({ subscription: publicPart(webhook), key }));
}
