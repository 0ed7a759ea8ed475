// Many notes added to a seeded workspace fast: written raw (lib/store/move/load.ts) and made exact by
// `score verify --repair` (lib/store/verify.ts), whose check then finds nothing left to repair.
import { expect } from 'vitest';
import { IMPORTANCES } from '#lib/domain/score.ts';
import * as keys from '#lib/store/keys.ts';
import { BulkWriter } from '#lib/store/move/load.ts';
import { queryAll } from '#lib/store/query.ts';
import { verifyWorkspace } from '#lib/store/verify.ts';

export async function addBulkNotes(ws: string, count: number): Promise<void> {
  const entities = await queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
    ExpressionAttributeValues: { ':pk': keys.partition(ws), ':p': 'ENT#' },
  });
  const hierarchy = entities.filter((e) => ['product', 'component', 'feature', 'subfeature'].includes(e.type as string));
  const customers = entities.filter((e) => e.type === 'user' || e.type === 'company');
  const writer = new BulkWriter({ ws, id: (id) => id, quiet: 'seed', sealedSecret: () => '' });
  const t0 = Date.parse('2025-01-01T00:00:00Z');
  for (let i = 0; i < count; i++) {
    const at = new Date(t0 + i * 60_000).toISOString();
    const customer = i % 6 === 0 ? undefined : customers[i % customers.length]!;
    const targets = [...new Set([hierarchy[i % hierarchy.length]!, hierarchy[(i * 7 + 3) % hierarchy.length]!])].slice(0, 1 + (i % 2));
    await writer.add({
      kind: 'note',
      id: crypto.randomUUID(),
      type: 'textNote',
      fields: { name: `Bulk feedback ${i}`, content: `<p>Bulk ${i}</p>` },
      ...(customer ? { customer: { id: customer.id as string, type: customer.type as 'user' | 'company' } } : {}),
      createdAt: at,
      updatedAt: at,
      links: targets.map((t, k) => ({
        entityId: t.id as string,
        entityType: t.type as 'feature',
        importance: IMPORTANCES[(i + k) % IMPORTANCES.length]!,
        ratedAt: at,
      })),
    });
  }
  await writer.flush();
  await verifyWorkspace(ws, true);
  expect(await verifyWorkspace(ws, false)).toMatchObject({ mismatches: 0 });
}
