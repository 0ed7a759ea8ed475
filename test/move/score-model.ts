// The scores the import's rule gives (README, "Import from Productboard": a link counts as rated when
// its note was last updated), computed from what the source's API shows, with the imported ids
// (they break ties). Independent of the import: the rule applied to a read of the source.
import { ownScores, type Importance, type RawLink } from '#lib/domain/score.ts';
import type { WorkspaceRead } from './read-workspace.ts';

export function scoresByImportRule(source: WorkspaceRead, id: (sourceId: string) => string): Record<string, number> {
  const links: RawLink[] = [];
  for (const [noteId, rels] of Object.entries(source.noteRelationships) as Array<[string, any[]]>) {
    const note = source.notes[noteId] as { updatedAt: string };
    const customer = rels.find((r) => r.type === 'customer')?.target.id as string | undefined;
    for (const r of rels.filter((x) => x.type === 'link')) {
      links.push({
        noteId: id(noteId),
        entityId: id(r.target.id),
        customerId: customer && id(customer),
        importance: r.importance as Importance,
        setAt: Date.parse(note.updatedAt),
      });
    }
  }
  const own = ownScores(links);
  const parent = new Map<string, string>();
  for (const [entityId, rels] of Object.entries(source.relationships) as Array<[string, any[]]>) {
    const p = rels.find((r) => r.type === 'parent');
    if (p) parent.set(id(entityId), id(p.target.id));
  }
  const total: Record<string, number> = {};
  for (const entityId of Object.keys(source.scores)) total[id(entityId)] = 0;
  for (const [entityId, o] of own) {
    for (let e: string | undefined = entityId; e !== undefined; e = parent.get(e)) if (e in total) total[e]! += o;
  }
  return total;
}
