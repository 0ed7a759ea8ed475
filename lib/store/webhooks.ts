// Webhook subscriptions and what became of each delivery (key layout: lib/store/keys.ts). A
// subscription's secrets arrive sealed (lib/events/secret-box.ts) and are stored as given. The
// workspace item counts its subscriptions (`webhookCount`), so the cap holds under concurrent creates.
//
// Delivery records make a redelivered message effectively once: a delivery is claimed for a short
// lease before its POST, marked `delivered` after a 2xx or `dead` when given up, and either mark
// ends every later attempt of the same (subscription, event) without a POST. Only a crash between a
// receiver's 2xx and the mark can repeat a POST; receivers de-duplicate by webhook-id.
import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { EventType } from '../domain/events.ts';
import { MAX_SUBSCRIPTIONS, type WebhookStatus, type WebhookSubscription } from '../domain/webhooks.ts';
import { db, tableName } from './client.ts';
import { keys, WEBHOOK_PREFIX } from './keys.ts';
import { queryAfter, type Item } from './pages.ts';

/** Delivery records outlive every retry of their message (SQS keeps messages at most 14 days). */
const DELIVERY_RECORD_DAYS = 30;

export interface StoredWebhook extends WebhookSubscription {
  /** Sealed signing secret and Authorization header value (lib/events/secret-box.ts). */
  sealedSigningSecret: string;
  sealedAuthorization: string | undefined;
  /** Deliveries given up in a row since the last success. */
  failureStreak: number;
}

export class WebhookStoreError extends Error {
  constructor(
    readonly reason: 'workspaceNotFound' | 'limitReached',
    message: string,
  ) {
    super(message);
    this.name = 'WebhookStoreError';
  }
}

function toWebhook(it: Item): StoredWebhook {
  return {
    id: it.id,
    name: it.name,
    events: it.events as EventType[],
    url: it.url,
    version: 1,
    status: it.status === 'paused' ? 'paused' : 'active',
    createdAt: it.createdAt,
    ...(it.createdByClient ? { createdByClient: it.createdByClient } : {}),
    sealedSigningSecret: it.sealedSigningSecret,
    sealedAuthorization: it.sealedAuthorization,
    failureStreak: typeof it.failureStreak === 'number' ? it.failureStreak : 0,
  };
}

export type NewWebhook = Omit<StoredWebhook, 'status' | 'failureStreak'>;

export async function createWebhook(ws: string, w: NewWebhook): Promise<StoredWebhook> {
  const stored: StoredWebhook = { ...w, status: 'active', failureStreak: 0 };
  try {
    await db().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName: tableName(),
              Key: keys.workspace(ws),
              UpdateExpression: 'SET webhookCount = if_not_exists(webhookCount, :zero) + :one',
              ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(webhookCount) OR webhookCount < :max)',
              ExpressionAttributeValues: { ':zero': 0, ':one': 1, ':max': MAX_SUBSCRIPTIONS },
            },
          },
          {
            Put: {
              TableName: tableName(),
              Item: { ...keys.webhook(ws, w.id), kind: 'webhook', ...stored, gsi1pk: keys.webhooksOf(ws), gsi1sk: `${w.createdAt}#${w.id}` },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
        ],
      }),
    );
  } catch (err) {
    if (err instanceof TransactionCanceledException && err.CancellationReasons?.[0]?.Code === 'ConditionalCheckFailed') {
      const exists = await db().send(new GetCommand({ TableName: tableName(), Key: keys.workspace(ws), ConsistentRead: true }));
      if (!exists.Item) throw new WebhookStoreError('workspaceNotFound', `No workspace ${ws}`);
      throw new WebhookStoreError('limitReached', `A workspace holds at most ${MAX_SUBSCRIPTIONS} webhook subscriptions; delete one first.`);
    }
    throw err;
  }
  return stored;
}

export async function getWebhook(ws: string, id: string): Promise<StoredWebhook | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: keys.webhook(ws, id), ConsistentRead: true }));
  return Item?.kind === 'webhook' ? toWebhook(Item) : undefined;
}

/** Every subscription of a workspace (at most MAX_SUBSCRIPTIONS), read consistently: what the stream consumer matches events against. */
export async function webhooksOf(ws: string): Promise<StoredWebhook[]> {
  const out: StoredWebhook[] = [];
  let start: Item | undefined;
  do {
    const page = await db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': keys.workspace(ws).pk, ':prefix': WEBHOOK_PREFIX },
        ConsistentRead: true,
        ExclusiveStartKey: start,
      }),
    );
    for (const it of page.Items ?? []) out.push(toWebhook(it));
    start = page.LastEvaluatedKey;
  } while (start);
  return out;
}

/** A page of subscriptions oldest first, after the list key `after`, kept by `keep`; each with its list key. */
export async function webhooksAfter(
  ws: string,
  after: string | undefined,
  count: number,
  keep: (w: StoredWebhook) => boolean,
): Promise<Array<{ webhook: StoredWebhook; key: string }>> {
  const items = await queryAfter({ index: 'gsi1', partitionKey: 'gsi1pk', partitionValue: keys.webhooksOf(ws), sortKey: 'gsi1sk', after, count, keep: (it) => keep(toWebhook(it)) });
  return items.map((it) => ({ webhook: toWebhook(it), key: String(it.gsi1sk) }));
}

/** Deletes a subscription; false when there is none. */
export async function deleteWebhook(ws: string, id: string): Promise<boolean> {
  try {
    await db().send(
      new TransactWriteCommand({
        TransactItems: [
          { Delete: { TableName: tableName(), Key: keys.webhook(ws, id), ConditionExpression: 'attribute_exists(pk)' } },
          {
            Update: {
              TableName: tableName(),
              Key: keys.workspace(ws),
              UpdateExpression: 'SET webhookCount = webhookCount - :one',
              ConditionExpression: 'webhookCount > :zero',
              ExpressionAttributeValues: { ':zero': 0, ':one': 1 },
            },
          },
        ],
      }),
    );
    return true;
  } catch (err) {
    if (err instanceof TransactionCanceledException && err.CancellationReasons?.[0]?.Code === 'ConditionalCheckFailed') return false;
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

async function updateIfExists(ws: string, id: string, update: string, values: Record<string, unknown>): Promise<Item | undefined> {
  try {
    const { Attributes } = await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.webhook(ws, id),
        UpdateExpression: update,
        ConditionExpression: 'attribute_exists(pk)',
        ...(update.includes('#status') ? { ExpressionAttributeNames: { '#status': 'status' } } : {}),
        ExpressionAttributeValues: values,
        ReturnValues: 'ALL_NEW',
      }),
    );
    return Attributes;
  } catch (err) {
    if (err instanceof ConditionalCheckFailedException) return undefined;
    throw err;
  }
}

export type DeliveryClaim = 'claimed' | 'finished' | 'busy';

/**
 * Takes a delivery for `leaseMs` before its POST: 'finished' when it was delivered or given up
 * already, 'busy' while another attempt holds an unexpired lease.
 */
export async function claimDelivery(ws: string, subscriptionId: string, eventId: string, options: { leaseMs: number; now?: number }): Promise<DeliveryClaim> {
  const now = options.now ?? Date.now();
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.webhookDelivery(ws, subscriptionId, eventId),
        UpdateExpression: 'SET kind = :kind, #state = :sending, leaseUntil = :until, #ttl = :ttl',
        ConditionExpression: 'attribute_not_exists(pk) OR (#state = :failed) OR (#state = :sending AND leaseUntil < :now)',
        ExpressionAttributeNames: { '#state': 'state', '#ttl': 'ttl' },
        ExpressionAttributeValues: {
          ':kind': 'delivery',
          ':sending': 'sending',
          ':failed': 'failed',
          ':until': now + options.leaseMs,
          ':now': now,
          ':ttl': Math.floor(now / 1000) + DELIVERY_RECORD_DAYS * 86_400,
        },
      }),
    );
    return 'claimed';
  } catch (err) {
    if (!(err instanceof ConditionalCheckFailedException)) throw err;
    const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: keys.webhookDelivery(ws, subscriptionId, eventId), ConsistentRead: true }));
    return Item?.state === 'delivered' || Item?.state === 'dead' ? 'finished' : 'busy';
  }
}

/** Ends a claimed delivery: `failed` (to be tried again), `delivered` or `dead` (final). */
export async function settleDelivery(
  ws: string,
  subscriptionId: string,
  eventId: string,
  outcome: { state: 'failed' | 'delivered' | 'dead'; attempt: number; detail: string },
): Promise<void> {
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.webhookDelivery(ws, subscriptionId, eventId),
      UpdateExpression: 'SET #state = :state, attempts = :attempt, lastResult = :detail, settledAt = :at REMOVE leaseUntil',
      ExpressionAttributeNames: { '#state': 'state' },
      ExpressionAttributeValues: { ':state': outcome.state, ':attempt': outcome.attempt, ':detail': outcome.detail.slice(0, 500), ':at': new Date().toISOString() },
    }),
  );
}

/** What the delivery records say about one (subscription, event), for tests and operators. */
export async function readDelivery(ws: string, subscriptionId: string, eventId: string): Promise<{ state: string; attempts: number; lastResult: string } | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: keys.webhookDelivery(ws, subscriptionId, eventId), ConsistentRead: true }));
  return Item ? { state: Item.state, attempts: Item.attempts ?? 0, lastResult: Item.lastResult ?? '' } : undefined;
}
