// Webhook subscriptions and what became of each delivery (key layout: lib/store/keys.ts). A
// subscription's secrets arrive sealed (lib/events/secret-box.ts) and are stored as given. The
// workspace item counts its subscriptions (`webhookCount`), so the cap holds under concurrent creates.
//
// Delivery records make a redelivered message effectively once: a delivery is claimed for a short
// lease before its POST, marked `delivered` after a 2xx or `dead` when given up, and either mark
// ends every later attempt of the same (subscription, event) without a POST. Only a crash between a
// receiver's 2xx and the mark can repeat a POST; receivers de-duplicate by webhook-id.
import { getItem, transactWrite, updateItem } from './calls.ts';
import { isCancellation, isConditionFailed, WebhookLimitReached } from './errors.ts';
import { writeOnce, type WriteScope } from './idempotency.ts';
import * as keys from './keys.ts';
import { partitionItems, type StoredItem } from './query.ts';
import { tableName } from './table.ts';
import { putInWorkspace } from './workspaces.ts';
import { MAX_SUBSCRIPTIONS, type WebhookStatus, type WebhookSubscription } from '../domain/webhooks.ts';

/** Delivery records outlive every retry of their message (SQS keeps messages at most 14 days). */
const DELIVERY_RECORD_DAYS = 30;
/** The workspace item's count of its subscriptions. */
const COUNT_ATTRIBUTE = 'webhookCount';

export interface StoredWebhook extends WebhookSubscription {
  /** Sealed signing secret and Authorization header value (lib/events/secret-box.ts). */
  sealedSigningSecret: string;
  sealedAuthorization: string | undefined;
  /** Deliveries given up in a row since the last success. */
  failureStreak: number;
}

/** A webhook item as this module wrote it (lib/store/keys.ts webhook), typed. */
export function toWebhook(item: StoredItem): StoredWebhook {
  const w = item as Partial<StoredWebhook>;
  return {
    id: w.id!,
    name: w.name!,
    events: w.events ?? [],
    url: w.url!,
    version: 1,
    status: w.status === 'paused' ? 'paused' : 'active',
    createdAt: w.createdAt!,
    ...(w.createdByClient ? { createdByClient: w.createdByClient } : {}),
    sealedSigningSecret: w.sealedSigningSecret!,
    sealedAuthorization: w.sealedAuthorization,
    failureStreak: typeof w.failureStreak === 'number' ? w.failureStreak : 0,
  };
}

type NewWebhook = Omit<StoredWebhook, 'status' | 'failureStreak'>;

/** Stores a new subscription, counted on the workspace under MAX_SUBSCRIPTIONS (WebhookLimitReached beyond). */
export async function createWebhook(ws: string, w: NewWebhook, scope?: WriteScope): Promise<StoredWebhook> {
  const stored: StoredWebhook = { ...w, status: 'active', failureStreak: 0 };
  // With an Idempotency-Key, a retry answers the first request's subscription (lib/store/idempotency.ts);
  // the record keeps its secrets sealed, as the subscription does.
  return writeOnce(
    stored,
    (record) =>
      putInWorkspace(
        ws,
        [
          {
            item: { ...keys.webhook(ws, w.id), kind: 'webhook', ...stored, gsi1pk: keys.webhooksOf(ws), gsi1sk: keys.listPosition(w.createdAt, w.id) },
            unique: true,
          },
        ],
        {
          counter: { attribute: COUNT_ATTRIBUTE, max: MAX_SUBSCRIPTIONS, exceeded: () => new WebhookLimitReached(MAX_SUBSCRIPTIONS) },
          also: record ? [record] : [],
        },
      ),
    scope,
  );
}

export async function getWebhook(ws: string, id: string): Promise<StoredWebhook | undefined> {
  const { Item } = await getItem({ TableName: tableName(), Key: keys.webhook(ws, id), ConsistentRead: true });
  return Item?.kind === 'webhook' ? toWebhook(Item) : undefined;
}

/** Every subscription of a workspace (at most MAX_SUBSCRIPTIONS), read consistently: what the stream consumer matches events against. */
export async function webhooksOf(ws: string): Promise<StoredWebhook[]> {
  const items = await partitionItems(ws, keys.webhooksPrefix);
  return items.map(toWebhook);
}

/** Deletes a subscription; false when there is none. */
export async function deleteWebhook(ws: string, id: string): Promise<boolean> {
  try {
    await transactWrite({
      TransactItems: [
        { Delete: { TableName: tableName(), Key: keys.webhook(ws, id), ConditionExpression: 'attribute_exists(pk)' } },
        {
          Update: {
            TableName: tableName(),
            Key: keys.workspace(ws),
            UpdateExpression: 'SET #n = #n - :one',
            ConditionExpression: '#n > :zero',
            ExpressionAttributeNames: { '#n': COUNT_ATTRIBUTE },
            ExpressionAttributeValues: { ':zero': 0, ':one': 1 },
          },
        },
      ],
    });
    return true;
  } catch (err) {
    if (isCancellation(err) && err.CancellationReasons?.[0]?.Code === 'ConditionalCheckFailed') return false;
    throw err;
  }
}

/** Stops deliveries to a subscription (it keeps its place; re-creating it resumes). */
export async function pauseWebhook(ws: string, id: string): Promise<void> {
  await updateIfExists(ws, id, 'SET #status = :paused', { ':paused': 'paused' satisfies WebhookStatus });
}

/** One more delivery given up; pauses the subscription when that makes `pauseAfter` in a row. Returns its status. */
export async function recordDeadDelivery(ws: string, id: string, pauseAfter: number): Promise<WebhookStatus | undefined> {
  const attrs = await updateIfExists(ws, id, 'SET failureStreak = if_not_exists(failureStreak, :zero) + :one', { ':zero': 0, ':one': 1 });
  if (!attrs) return undefined;
  if (attrs.status !== 'paused' && Number(attrs.failureStreak) >= pauseAfter) {
    await pauseWebhook(ws, id);
    return 'paused';
  }
  return attrs.status === 'paused' ? 'paused' : 'active';
}

/** A delivery succeeded: the run of failures is over. */
export async function clearFailureStreak(ws: string, id: string): Promise<void> {
  await updateIfExists(ws, id, 'SET failureStreak = :zero', { ':zero': 0 });
}

async function updateIfExists(ws: string, id: string, update: string, values: Record<string, unknown>): Promise<StoredItem | undefined> {
  try {
    const { Attributes } = await updateItem({
      TableName: tableName(),
      Key: keys.webhook(ws, id),
      UpdateExpression: update,
      ConditionExpression: 'attribute_exists(pk)',
      ...(update.includes('#status') ? { ExpressionAttributeNames: { '#status': 'status' } } : {}),
      ExpressionAttributeValues: values,
      ReturnValues: 'ALL_NEW',
    });
    return Attributes;
  } catch (err) {
    if (isConditionFailed(err)) return undefined;
    throw err;
  }
}

type DeliveryClaim = { kind: 'claimed'; attempt: number } | { kind: 'finished' } | { kind: 'busy' };

/**
 * Takes a delivery for `leaseMs` before its POST: 'finished' when it was delivered or given up
 * already, 'busy' while another attempt holds an unexpired lease. A claim counts an attempt, so the
 * retry schedule counts the POSTs tried, never how often the queue handed the message over (an SQS
 * FIFO receive hands over the messages queued behind a failing one with it, untried).
 */
export async function claimDelivery(ws: string, subscriptionId: string, eventId: string, options: { leaseMs: number; now?: number }): Promise<DeliveryClaim> {
  const now = options.now ?? Date.now();
  try {
    const { Attributes } = await updateItem({
      TableName: tableName(),
      Key: keys.webhookDelivery(ws, subscriptionId, eventId),
      UpdateExpression: 'SET kind = :kind, #state = :sending, leaseUntil = :until, #ttl = :ttl, attempts = if_not_exists(attempts, :zero) + :one',
      ConditionExpression: 'attribute_not_exists(pk) OR (#state = :failed) OR (#state = :sending AND leaseUntil < :now)',
      ExpressionAttributeNames: { '#state': 'state', '#ttl': 'ttl' },
      ExpressionAttributeValues: {
        ':kind': 'delivery',
        ':sending': 'sending',
        ':failed': 'failed',
        ':until': now + options.leaseMs,
        ':now': now,
        ':ttl': Math.floor(now / 1000) + DELIVERY_RECORD_DAYS * 86_400,
        ':zero': 0,
        ':one': 1,
      },
      ReturnValues: 'UPDATED_NEW',
    });
    return { kind: 'claimed', attempt: Number(Attributes?.attempts) };
  } catch (err) {
    if (!isConditionFailed(err)) throw err;
    const { Item } = await getItem({ TableName: tableName(), Key: keys.webhookDelivery(ws, subscriptionId, eventId), ConsistentRead: true });
    return Item?.state === 'delivered' || Item?.state === 'dead' ? { kind: 'finished' } : { kind: 'busy' };
  }
}

/** Ends a claimed delivery: `failed` (to be tried again), `delivered` or `dead` (final). */
export async function settleDelivery(
  ws: string,
  subscriptionId: string,
  eventId: string,
  outcome: { state: 'failed' | 'delivered' | 'dead'; attempt: number; detail: string },
): Promise<void> {
  await updateItem({
    TableName: tableName(),
    Key: keys.webhookDelivery(ws, subscriptionId, eventId),
    UpdateExpression: 'SET #state = :state, attempts = :attempt, lastResult = :detail, settledAt = :at REMOVE leaseUntil',
    ExpressionAttributeNames: { '#state': 'state' },
    ExpressionAttributeValues: {
      ':state': outcome.state,
      ':attempt': outcome.attempt,
      ':detail': outcome.detail.slice(0, 500),
      ':at': new Date().toISOString(),
    },
  });
}
