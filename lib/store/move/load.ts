// Raw items written in BatchWriteItem batches (lib/store/batch.ts), never per-record transactions:
// a bulk move writes into a workspace no one else writes to yet (restore, import) and computes the
// aggregates afterwards in one pass (./aggregates-fresh.ts).
import { itemsOf, type LoadContext } from './kinds.ts';
import type { MoveKind, RecordOf } from '../../domain/schemas/workspace-export.ts';
import { batchWriteAll, itemKeyId } from '../batch.ts';

/** Items held before they are written: 25 per BatchWriteItem, PARALLEL of them at once. */
const BUFFER = 1000;
export const PARALLEL = 8;

export class BulkWriter {
  /** Items buffered, by key (a key written twice in one BatchWriteItem is refused: the last wins). */
  private buffer = new Map<string, Record<string, unknown>>();
  /** Table items written so far. */
  written = 0;
  /** The write under way: the next buffer fills while it runs. */
  private pending: Promise<void> = Promise.resolve();

  constructor(readonly ctx: LoadContext) {}

  /** Buffers the record's items; writes a full buffer. */
  async add(record: RecordOf<MoveKind>): Promise<void> {
    for (const item of itemsOf(record, this.ctx)) this.buffer.set(itemKeyId({ pk: item.pk as string, sk: item.sk as string }), item);
    if (this.buffer.size >= BUFFER) {
      await this.pending;
      this.pending = this.write();
      // Awaited by the next add or flush; marked handled now so a failure meanwhile is not "unhandled".
      this.pending.catch(() => undefined);
    }
  }

  /** Writes whatever is buffered: after it, every record added so far is in the table. */
  async flush(): Promise<void> {
    await this.pending;
    this.pending = Promise.resolve();
    await this.write();
  }

  private async write(): Promise<void> {
    if (this.buffer.size === 0) return;
    const items = [...this.buffer.values()];
    this.buffer = new Map();
    await batchWriteAll(
      items.map((Item) => ({ PutRequest: { Item } })),
      PARALLEL,
    );
    this.written += items.length;
  }
}
