// What a workspace export file (./schemas/workspace-export.ts) must hold besides each line's shape,
// checked over the whole file before a restore writes anything of it: records grouped by kind in
// their order, no record twice, every reference naming a record of the file, of the type it says (a
// note's links: hierarchy entities, each once), and the entities' trees as the API keeps them (the
// parent rules, no cycle, the depth cap: ./hierarchy.ts). A file that breaks one was not written by
// an export: it is refused, with the first line that breaks one.
import { aType, depthViolation, MAX_DEPTH, parentRuleViolation, type EntityType } from './hierarchy.ts';
import { MOVE_KINDS, type MoveKind, type MoveRecord } from './schemas/workspace-export.ts';

/** Why the file is refused, and the line it is about. */
interface FileProblem {
  line: number;
  problem: string;
}

interface EntitySeen {
  type: EntityType;
  parent: { id: string; type: EntityType } | undefined;
  line: number;
}

export class ExportFileCheck {
  /** Each kind's ids (relations: their pair and type), with the line that holds it. */
  private readonly ids = new Map<MoveKind, Map<string, number>>(MOVE_KINDS.map((k) => [k, new Map()]));
  private readonly entities = new Map<string, EntitySeen>();
  private lastKind = 0;
  private first: FileProblem | undefined;

  private refuse(line: number, problem: string): void {
    if (!this.first || line < this.first.line) this.first = { line, problem };
  }

  /** Records one line's record; what it breaks is kept for result(). */
  add(record: MoveRecord, line: number): void {
    const kind = MOVE_KINDS.indexOf(record.kind);
    if (kind < this.lastKind)
      this.refuse(
        line,
        `a ${record.kind} record after the ${MOVE_KINDS[this.lastKind]} records: records are grouped by kind in the order ${MOVE_KINDS.join(', ')}`,
      );
    this.lastKind = Math.max(this.lastKind, kind);
    const key = record.kind === 'relation' ? `${record.entityId} ${record.type} ${record.targetId}` : record.id;
    const earlier = this.ids.get(record.kind)!.get(key);
    if (earlier !== undefined) this.refuse(line, `a second ${record.kind} record ${key} (the first is on line ${earlier})`);
    else this.ids.get(record.kind)!.set(key, line);
    switch (record.kind) {
      case 'member':
        (record.teams ?? []).forEach((t, i) => this.expect(line, `teams.${i}.id`, 'team', t.id));
        break;
      case 'entity':
        this.entities.set(record.id, { type: record.type, parent: record.parent && { id: record.parent.id, type: record.parent.type }, line });
        break;
      case 'relation':
        this.entity(line, 'entityId', record.entityId, record.entityType);
        this.entity(line, 'targetId', record.targetId, record.targetType);
        break;
      case 'note': {
        if (record.customer) this.entity(line, 'customer.id', record.customer.id, record.customer.type);
        const linked = new Set<string>();
        record.links.forEach((l, i) => {
          this.entity(line, `links.${i}.entityId`, l.entityId, l.entityType);
          if (linked.has(l.entityId)) this.refuse(line, `links.${i}.entityId: the note links ${l.entityId} twice`);
          linked.add(l.entityId);
        });
        break;
      }
      case 'comment':
        this.expect(line, 'noteId', 'note', record.noteId);
        break;
    }
  }

  /** A reference to a record of `kind` (one of an earlier kind: it is in the file by now, or never). */
  private expect(line: number, at: string, kind: MoveKind, id: string): void {
    if (!this.ids.get(kind)!.has(id)) this.refuse(line, `${at}: no ${kind} record of the file has the id ${id}`);
  }

  /** A reference to an entity of the type it says. */
  private entity(line: number, at: string, id: string, type: string): void {
    const found = this.entities.get(id);
    if (!found) this.refuse(line, `${at}: no entity record of the file has the id ${id}`);
    else if (found.type !== type) this.refuse(line, `${at}: ${id} is ${aType(found.type)} (line ${found.line}), not ${aType(type)}`);
  }

  /** Each entity's parent as the rules want it, and its depth within the cap (the parents are known only once all entities are). */
  private checkTrees(): void {
    for (const [id, e] of this.entities) {
      const parent = e.parent && this.entities.get(e.parent.id);
      if (e.parent && !parent) {
        this.refuse(e.line, `parent.id: no entity record of the file has the id ${e.parent.id}`);
        continue;
      }
      if (e.parent && parent!.type !== e.parent.type) {
        this.refuse(e.line, `parent.type: ${e.parent.id} is ${aType(parent!.type)} (line ${parent!.line}), not ${aType(e.parent.type)}`);
        continue;
      }
      const rule = parentRuleViolation(e.type, parent?.type);
      if (rule) {
        this.refuse(e.line, `parent: ${rule}`);
        continue;
      }
      // Up the parents: back to where it began is a cycle; past the cap, too deep.
      const seen = new Set([id]);
      let depth = 1;
      let up = e.parent?.id;
      for (; up !== undefined && !seen.has(up) && depth <= MAX_DEPTH; up = this.entities.get(up)?.parent?.id) {
        seen.add(up);
        depth++;
      }
      if (up !== undefined && seen.has(up)) this.refuse(e.line, `parent: ${e.parent!.id} is under this entity itself (a cycle)`);
      else {
        const deep = depthViolation(depth - 1, 1);
        if (deep) this.refuse(e.line, `parent: ${deep}`);
      }
    }
  }

  /** The first problem of the file, by line; undefined when there is none. */
  result(): FileProblem | undefined {
    this.checkTrees();
    return this.first;
  }
}
