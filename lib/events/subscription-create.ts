// Creating a webhook subscription: validate (the caller's right to read what the events report on,
// then the destination), seal the secrets with the service secret, store. Refusals are typed errors
// located in the request.
import { randomUUID } from 'node:crypto';
import { sealContext } from './deliver.ts';
import { checkDestination, DestinationRejected } from './destination.ts';
import { open, seal, webhookSecretKey } from './secret-box.ts';
import { newSigningSecret } from './signature.ts';
import { publicPart, type Caller } from './subscriptions.ts';
import { lacksScopes } from '../auth/errors.ts';
import { serviceSecret } from '../auth/service-secret.ts';
import { config } from '../config.ts';
import { InvalidInput, pointer } from '../domain/errors.ts';
import { resourcesRead, type WebhookInput, type WebhookSubscription } from '../domain/webhooks.ts';
import { WebhookLimitReached } from '../store/errors.ts';
import type { WriteScope } from '../store/idempotency.ts';
import { createWebhook } from '../store/webhooks.ts';

const URL_POINTER = pointer(['data', 'fields', 'notification', 'url']);

/** A subscription its body's schema (CreateWebhookBody) has read: the caller's scopes, then the destination, then the store. */
export async function createSubscription(
  caller: Caller,
  input: WebhookInput,
  scope?: WriteScope,
): Promise<{ subscription: WebhookSubscription; signingSecret: string }> {
  const missing = resourcesRead(input.events)
    .map((r) => `${r}:read`)
    .filter((s) => !caller.scopes.has(s));
  if (missing.length > 0) throw lacksScopes('Subscribing to these events', missing);
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
