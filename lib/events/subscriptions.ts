// Webhook subscription management as the HTTP handlers use it: validate (shape, event types, the
// caller's right to read what the events report on, the destination), seal the secrets, store, and
// apply Productboard's visibility rule (an access token sees only its own application's
// subscriptions). Refusals are typed errors located in the request.
import { randomUUID } from 'node:crypto';
import { sealContext } from './deliver.ts';
import { checkDestination, DestinationRejected } from './destination.ts';
import { open, seal, webhookSecretKey } from './secret-box.ts';
import { newSigningSecret } from './signature.ts';
import { AccessDenied } from '../auth/errors.ts';
import { serviceSecret } from '../auth/service-secret.ts';
import { config } from '../config.ts';
import { InvalidInput, NotFound, pointer } from '../domain/errors.ts';
import { resourcesRead, visibleTo, type WebhookInput, type WebhookSubscription } from '../domain/webhooks.ts';
import { WebhookLimitReached } from '../store/errors.ts';
import type { WriteScope } from '../store/idempotency.ts';
import { webhooksAfter } from '../store/pages.ts';
import { createWebhook, deleteWebhook, getWebhook, type StoredWebhook } from '../store/webhooks.ts';

interface Caller {
  workspaceId: string;
  scopes: ReadonlySet<string>;
  /** Set for an access token: the application that minted it. */
  clientId?: string | undefined;
}

const URL_POINTER = pointer(['data', 'fields', 'notification', 'url']);

const notFound = (id: string) => new NotFound('webhook subscription', id);

/** A subscription its body's schema (CreateWebhookBody) has read: the caller's scopes, then the destination, then the store. */
export async function createSubscription(
  caller: Caller,
  input: WebhookInput,
  scope?: WriteScope,
): Promise<{ subscription: WebhookSubscription; signingSecret: string }> {
  const missing = resourcesRead(input.events)
    .map((r) => `${r}:read`)
    .filter((s) => !caller.scopes.has(s));
  if (missing.length > 0) {
    throw new AccessDenied(
      `Subscribing to these events needs the scope${missing.length > 1 ? 's' : ''} ${missing.join(' and ')}, which the token does not carry.`,
    );
  }
  try {
    await checkDestination(input.url, { allowLoopback: config.webhooksAllowLoopback });
  } catch (err) {
    if (err instanceof DestinationRejected) throw new InvalidInput(err.detail, URL_POINTER);
    throw err;
  }
  const id = randomUUID();
  const signingSecret = newSigningSecret();
  const key = webhookSecretKey(await serviceSecret());
  try {
    const stored = await createWebhook(
      caller.workspaceId,
      {
        id,
        name: input.name,
        events: input.events,
        url: input.url,
        version: input.version,
        createdAt: new Date().toISOString(),
        ...(caller.clientId ? { createdByClient: caller.clientId } : {}),
        sealedSigningSecret: seal(key, signingSecret, sealContext(id, 'signingSecret')),
        sealedAuthorization: input.authorization === undefined ? undefined : seal(key, input.authorization, sealContext(id, 'authorization')),
      },
      scope,
    );
    // A retry under an Idempotency-Key answers the first request's subscription (another id): its
    // secret is the one sealed on it, so the replay is the first answer, secret included.
    const secret = stored.id === id ? signingSecret : open(key, stored.sealedSigningSecret, sealContext(stored.id, 'signingSecret'));
    return { subscription: publicPart(stored), signingSecret: secret };
  } catch (err) {
    // Located at the body: the request itself is fine, the workspace is full.
    if (err instanceof WebhookLimitReached) throw new InvalidInput(err.message, pointer(['data']));
    throw err;
  }
}

/** The stored subscription without what is never shown (sealed secrets, failure counter). */
function publicPart(w: StoredWebhook): WebhookSubscription {
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
export async function subscriptionsAfter(
  caller: Caller,
  after: string | undefined,
  count: number,
): Promise<Array<{ subscription: WebhookSubscription; position: string }>> {
  const page = await webhooksAfter(caller.workspaceId, after, count, (w) => visibleTo(w, caller));
  return page.map(({ record, position }) => ({ subscription: publicPart(record), position }));
}
