// Reads the table's stream from DynamoDB Local (its Streams API: ListStreams, DescribeStream,
// GetShardIterator, GetRecords) and hands each shard's records, in order, to a consumer shaped like
// the deployed stream function: the records are those of a Lambda DynamoDB stream event. As Lambda's
// event source mapping does, a batch the consumer throws on is retried (after a pause) before
// anything later in that shard, and a child shard is read only after its parent is finished.
import { setTimeout as sleep } from 'node:timers/promises';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  ExpiredIteratorException,
  TrimmedDataAccessException,
  GetRecordsCommand,
  GetShardIteratorCommand,
  ListStreamsCommand,
  type _Record as SdkRecord,
  type Shard,
} from '@aws-sdk/client-dynamodb-streams';
import type { AttributeValue as LambdaAttributeValue, DynamoDBRecord } from 'aws-lambda';
import { clientBounds } from '#lib/aws-clients.ts';
import { config } from '#lib/config.ts';

export type StreamConsumer = (records: DynamoDBRecord[]) => Promise<void>;

export interface StreamReaderOptions {
  endpoint: string;
  tableName: string;
  consume: StreamConsumer;
  /** Where reading starts in the shards open at start: only what is written from now on (default), or all the stream holds. */
  from?: 'LATEST' | 'TRIM_HORIZON';
  /** Pause between polls of a shard with nothing new. */
  pollMs?: number;
  /** Pause before a failed batch is handed over again. */
  retryMs?: number;
  onError?: (err: unknown) => void;
}

export interface StreamReader {
  /**
   * Resolves once everything written before the call has been handed over and consumed: every
   * shard was polled after the call and came back empty.
   */
  settled(): Promise<void>;
  stop(): Promise<void>;
}

interface ShardState {
  id: string;
  parentId: string | undefined;
  iterator: string | undefined;
  /** Last sequence number consumed: a fresh iterator after an expired one starts after it. */
  after: string | undefined;
  finished: boolean;
  /** Records fetched but not yet consumed (a failed batch waits here). */
  pending: SdkRecord[];
}

/** An SDK stream record as Lambda's event delivers it (images keep the wire's attribute-value shape). */
export function toLambdaRecord(r: SdkRecord, streamArn: string): DynamoDBRecord {
  const d = r.dynamodb ?? {};
  const image = (m: unknown) => m as Record<string, LambdaAttributeValue> | undefined;
  return {
    eventID: r.eventID,
    eventName: r.eventName,
    eventVersion: r.eventVersion,
    eventSource: r.eventSource ?? 'aws:dynamodb',
    awsRegion: r.awsRegion,
    eventSourceARN: streamArn,
    dynamodb: {
      ...(d.ApproximateCreationDateTime ? { ApproximateCreationDateTime: Math.floor(d.ApproximateCreationDateTime.getTime() / 1000) } : {}),
      Keys: image(d.Keys),
      ...(d.NewImage ? { NewImage: image(d.NewImage) } : {}),
      ...(d.OldImage ? { OldImage: image(d.OldImage) } : {}),
      SequenceNumber: d.SequenceNumber,
      SizeBytes: d.SizeBytes,
      StreamViewType: d.StreamViewType,
    },
  };
}

export async function startStreamReader(options: StreamReaderOptions): Promise<StreamReader> {
  const pollMs = options.pollMs ?? 200;
  const retryMs = options.retryMs ?? 1000;
  const client = new DynamoDBStreamsClient({
    endpoint: options.endpoint,
    region: 'us-east-1',
    credentials: config.localDynamodbCredentials,
    ...clientBounds(),
  });
  const { Streams } = await client.send(new ListStreamsCommand({ TableName: options.tableName }));
  const streamArn = Streams?.[0]?.StreamArn;
  if (!streamArn) throw new Error(`Table ${options.tableName} has no stream (lib/store/table.ts declares one; re-create the table)`);

  const shards = new Map<string, ShardState>();
  let first = true;
  let stopped = false;
  // Each completed round (every shard polled once) bumps `round`; `emptyRounds` counts rounds in a row that found nothing.
  let round = 0;
  let emptyRounds = 0;
  const waiters: Array<{ after: number; resolve: () => void }> = [];

  async function discover(): Promise<void> {
    const found: Shard[] = [];
    let start: string | undefined;
    do {
      const out = await client.send(new DescribeStreamCommand({ StreamArn: streamArn, ExclusiveStartShardId: start }));
      found.push(...(out.StreamDescription?.Shards ?? []));
      start = out.StreamDescription?.LastEvaluatedShardId;
    } while (start);
    for (const s of found) {
      if (!s.ShardId || shards.has(s.ShardId)) continue;
      shards.set(s.ShardId, { id: s.ShardId, parentId: s.ParentShardId, iterator: undefined, after: undefined, finished: false, pending: [] });
    }
    // Shards open at start begin where asked; shards that appear later are read from their beginning.
    for (const s of shards.values()) {
      if (s.iterator || s.finished) continue;
      const out = await client.send(
        new GetShardIteratorCommand({ StreamArn: streamArn, ShardId: s.id, ShardIteratorType: first ? (options.from ?? 'LATEST') : 'TRIM_HORIZON' }),
      );
      s.iterator = out.ShardIterator;
    }
    first = false;
  }

  /**
   * An iterator in place of one that expired, or that points at records the stream no longer holds
   * (past its 24 hours; DynamoDB Local also says so of a live stream once another table's stream
   * has grown): after the last record consumed, or from the oldest one held when that is gone too,
   * as Lambda's event source mapping goes on. The sweeper, not the stream, finishes pending work.
   */
  async function freshIterator(s: ShardState): Promise<string | undefined> {
    const at = (type: 'AFTER_SEQUENCE_NUMBER' | 'TRIM_HORIZON') =>
      client.send(
        new GetShardIteratorCommand({
          StreamArn: streamArn,
          ShardId: s.id,
          ShardIteratorType: type,
          ...(type === 'TRIM_HORIZON' ? {} : { SequenceNumber: s.after }),
        }),
      );
    if (s.after) {
      try {
        return (await at('AFTER_SEQUENCE_NUMBER')).ShardIterator;
      } catch (err) {
        if (!(err instanceof TrimmedDataAccessException)) throw err;
      }
    }
    return (await at('TRIM_HORIZON')).ShardIterator;
  }

  const readable = (s: ShardState) => !s.finished && (!s.parentId || !shards.has(s.parentId) || shards.get(s.parentId)!.finished);

  /** One poll of one shard; true when it handed records over. */
  async function pollShard(s: ShardState): Promise<boolean> {
    if (s.pending.length === 0) {
      if (!s.iterator) return false;
      let out;
      try {
        out = await client.send(new GetRecordsCommand({ ShardIterator: s.iterator, Limit: 1000 }));
      } catch (err) {
        if (!(err instanceof ExpiredIteratorException || err instanceof TrimmedDataAccessException)) throw err;
        s.iterator = await freshIterator(s);
        return false;
      }
      s.iterator = out.NextShardIterator;
      if (!s.iterator) s.finished = true;
      s.pending = out.Records ?? [];
    }
    if (s.pending.length === 0) return false;
    const batch = s.pending;
    await options.consume(batch.map((r) => toLambdaRecord(r, streamArn!)));
    s.pending = [];
    s.after = batch[batch.length - 1]!.dynamodb?.SequenceNumber;
    return true;
  }

  const loop = (async () => {
    let lastDiscovery = 0;
    while (!stopped) {
      let busy = false;
      try {
        if (Date.now() - lastDiscovery > 2_000) {
          await discover();
          lastDiscovery = Date.now();
        }
        for (const s of shards.values()) if (readable(s) && (await pollShard(s))) busy = true;
      } catch (err) {
        options.onError?.(err);
        busy = true;
        await sleep(retryMs);
      }
      round++;
      emptyRounds = busy ? 0 : emptyRounds + 1;
      // Two empty rounds after the request: the first may have started before it.
      for (const w of [...waiters]) {
        if (round >= w.after && emptyRounds >= 2) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve();
        }
      }
      if (!busy && !stopped) await sleep(pollMs);
    }
  })();

  return {
    settled: () => new Promise<void>((resolve) => waiters.push({ after: round + 2, resolve })),
    stop: async () => {
      stopped = true;
      await loop;
      for (const w of waiters.splice(0)) w.resolve();
      client.destroy();
    },
  };
}
