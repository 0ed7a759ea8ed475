// Workspaces, and the one way to add items to one: a transaction that checks it exists.
import { randomUUID } from 'node:crypto';
import type { TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { getItem, putItem, transactWrite } from './calls.ts';
import { isCancellation, WorkspaceNotFound } from './errors.ts';
import * as keys from './keys.ts';
import { MoveAbandoned, type MoveRun, type RunState } from './move/runs.ts';
import { tableName } from './table.ts';

interface Workspace {
  id: string;
  name: string;
  createdAt: string;
}

/** The workspace item, put only where none is. */
const workspacePut = (ws: Workspace, webhookCount: number) => ({
  TableName: tableName(),
  Item: { ...keys.workspace(ws.id), kind: 'workspace', id: ws.id, name: ws.name, createdAt: ws.createdAt, ...(webhookCount ? { webhookCount } : {}) },
  ConditionExpression: 'attribute_not_exists(pk)',
});

export async function createWorkspace(name: string): Promise<Workspace> {
  const ws: Workspace = { id: randomUUID(), name, createdAt: new Date().toISOString() };
  await putItem(workspacePut(ws, 0));
  return ws;
}

/**
 * Writes the workspace item of a workspace a move has filled (its id chosen when the move began), with
 * the number of webhooks the move added; one that exists already (written by a run of the same move
 * that stopped before it was marked complete) is left as it is. In the same transaction the move's
 * run must not be being abandoned: of a commit and an abandonment (./move/abandon.ts) racing, one wins.
 */
export async function commitMovedWorkspace(ws: Workspace, webhookCount: number, run: Pick<MoveRun, 'runKey' | 'command' | 'name'>): Promise<void> {
  try {
    await transactWrite({
      TransactItems: [
        { Put: workspacePut(ws, webhookCount) },
        {
          ConditionCheck: {
            TableName: tableName(),
            Key: keys.moveRun(run.runKey),
            ConditionExpression: 'attribute_exists(pk) AND #state <> :abandoning',
            ExpressionAttributeNames: { '#state': 'state' },
            ExpressionAttributeValues: { ':abandoning': 'abandoning' satisfies RunState },
          },
        },
      ],
    });
  } catch (err) {
    if (!isCancellation(err)) throw err;
    const [workspace, runCheck] = err.CancellationReasons ?? [];
    if (runCheck?.Code === 'ConditionalCheckFailed') throw new MoveAbandoned(run);
    if (workspace?.Code !== 'ConditionalCheckFailed') throw err;
  }
}

export async function getWorkspace(id: string): Promise<Workspace | undefined> {
  const { Item } = await getItem({ TableName: tableName(), Key: keys.workspace(id), ConsistentRead: true });
  if (!Item) return undefined;
  const w = Item as Workspace;
  return { id: w.id, name: w.name, createdAt: w.createdAt };
}

/** One write of a TransactWriteItems. */
export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** An item to put into a workspace: `unique` only where no item has its key yet; `taken` says why one did. */
interface WorkspacePut {
  item: Record<string, unknown>;
  unique?: boolean;
  taken?: () => Error;
}

/** A count the workspace item keeps of some kind of item, and its cap (`exceeded` says why a put was refused). */
interface WorkspaceCounter {
  attribute: string;
  max: number;
  exceeded: () => Error;
}

/**
 * Puts items into a workspace in one transaction that also requires the workspace to exist
 * (admin commands name workspaces directly), and, with a `counter`, counts them on the workspace
 * item under its cap. A failed condition is WorkspaceNotFound, the counter's `exceeded` error, or the
 * `taken` error of the first unique item whose key was in use. `also` are further unconditional
 * writes of the same transaction (e.g. look-up items outside the workspace kept in step).
 */
export async function putInWorkspace(
  workspaceId: string,
  puts: WorkspacePut[],
  { counter, also = [] }: { counter?: WorkspaceCounter; also?: TransactItem[] } = {},
): Promise<void> {
  const workspace = { TableName: tableName(), Key: keys.workspace(workspaceId) };
  try {
    await transactWrite({
      TransactItems: [
        counter
          ? {
              Update: {
                ...workspace,
                UpdateExpression: 'SET #n = if_not_exists(#n, :zero) + :one',
                ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(#n) OR #n < :max)',
                ExpressionAttributeNames: { '#n': counter.attribute },
                ExpressionAttributeValues: { ':zero': 0, ':one': 1, ':max': counter.max },
              },
            }
          : { ConditionCheck: { ...workspace, ConditionExpression: 'attribute_exists(pk)' } },
        ...puts.map(({ item, unique }) => ({
          Put: { TableName: tableName(), Item: item, ...(unique ? { ConditionExpression: 'attribute_not_exists(pk)' } : {}) },
        })),
        ...also,
      ],
    });
  } catch (err) {
    if (isCancellation(err)) {
      const failed = (err.CancellationReasons ?? []).findIndex((r) => r.Code === 'ConditionalCheckFailed');
      if (failed === 0) {
        if (counter && (await getWorkspace(workspaceId))) throw counter.exceeded();
        throw new WorkspaceNotFound(workspaceId);
      }
      const taken = puts[failed - 1]?.taken;
      if (taken) throw taken();
    }
    throw err;
  }
}
