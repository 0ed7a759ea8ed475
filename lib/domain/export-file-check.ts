// What a workspace export file (./schemas/workspace-export.ts) must hold besides each line's shape,
// checked over the whole file before a restore writes anything of it: records grouped by kind in
// their order, no record twice, every reference naming a record of the file, of the type it says (a
// note's links: hierarchy entities, each once; an owner, a creator or a comment's author: a member,
// by its own e-mail; an entity's tags and teams: tag values and teams), relations the API would
// create (./relations.ts), and the entities' trees as the API keeps them (the parent rules, no
// cycle, the depth cap: ./hierarchy.ts). A file that breaks one was not written by an export: it is
// refused, with the first line that breaks one. An entity's and a note's fields are checked by the
// rules of the values the API stores (./schemas/field-values.ts read shapes, a note's content as a
// write takes it, the type's statuses, the file's custom fields by ./configurations.ts); the other
// records' by the rules the API takes them with, no name it keeps to one record on two
// (./export-record-fields.ts).
import * as z from 'zod/mini';
import { customValueSchema } from './configurations.ts';
import { ENTITY_FIELDS, MEMBER_FIELDS, NOTE_FIELDS, REFERENCE_FIELDS, type ReferenceFieldId } from './entity-fields.ts';
import { InvalidInput } from './errors.ts';
import { recordFieldsProblem, uniqueNamesOf } from './export-record-fields.ts';
import { aType, depthViolation, MAX_DEPTH, parentRuleViolation, type EntityType } from './hierarchy.ts';
import { parseInput } from './input.ts';
import { checkNoteContent } from './note-content.ts';
import { recordSizeProblem } from './record-size.ts';
import { contradictionOf, contradictionProblem, relationKey, relationViolation } from './relations.ts';
import { isUuid } from './schemas/common.ts';
import { ENTITY_STANDARD_FIELDS, NOTE_STANDARD_FIELDS, type FieldTable, type StandardFieldId } from './schemas/field-values.ts';
import {
  MOVE_KINDS,
  type CustomFieldRecord,
  type EntityRecord,
  type MoveKind,
  type MoveRecord,
  type NoteRecord,
  type RelationRecord,
} from './schemas/workspace-export.ts';
import { statusOf } from './statuses.ts';

/** The kind of record an entity's reference field names by id (a note's tags are labels, not these). */
const REFERENCED: Record<ReferenceFieldId, MoveKind> = { tags: 'tagValue', teams: 'team' };

/** Why the file is refused, and the line it is about. */
export interface FileProblem {
  line: number;
  problem: string;
}

interface EntitySeen {
  type: EntityType;
  parent: { id: string; type: EntityType } | undefined;
  line: number;
}

/**
 * What the API would refuse in the value of one of an entity's or a note's standard fields (one its
 * type has), worded as it refuses a write ('/fields/name' must be …); undefined when nothing.
 */
export function standardFieldProblem(record: Pick<EntityRecord, 'kind' | 'type'> | Pick<NoteRecord, 'kind' | 'type'>, key: StandardFieldId, value: unknown) {
  const note = record.kind === 'note';
  const table: FieldTable = note ? NOTE_STANDARD_FIELDS : ENTITY_STANDARD_FIELDS;
  // A note's content as a write takes it (its read shape lacks a write's rule: each conversation part once), and
  // not sanitised: the API stores HTML as written, and pages sanitise it when they show it (lib/http/member-pages/rich-text.ts).
  const content = note && key === 'content';
  // An e-mail as a write takes it: its read shape also takes `[redacted]`, what a reader without users:pii:read sees.
  const schema = content ? table.content!.write : key === 'email' ? table.email!.write : table[key]!.read;
  try {
    parseInput(z.object({ fields: z.object({ [key]: schema }) }), { fields: { [key]: value } }, 'body');
    if (content) checkNoteContent(record.type, value, ['fields', 'content']);
    return undefined;
  } catch (err) {
    if (!(err instanceof InvalidInput)) throw err;
    return err.detail;
  }
}

/**
 * How far past the export's `exportedAt` a record's date may be: the service's instances and the
 * machine that exported keep their own clocks. Beyond it, a date no export wrote: a rating dated
 * in 9999 would stay any customer's latest rating of its entity for good.
 */
const CLOCK_ALLOWANCE_MS = 24 * 60 * 60 * 1000;

export class ExportFileCheck {
  /** Each kind's ids (relations: their pair and type), with the line that holds it. */
  private readonly ids = new Map<MoveKind, Map<string, number>>(MOVE_KINDS.map((k) => [k, new Map()]));
  private readonly entities = new Map<string, EntitySeen>();
  private readonly customFields = new Map<string, CustomFieldRecord>();
  /** Each member's e-mail (lower-cased) by id: owners, creators and comment authors name members by both. */
  private readonly memberEmails = new Map<string, string>();
  /** Names the API keeps to one record (./export-record-fields.ts uniqueNamesOf), by their key: the first record's value and line. */
  private readonly taken = new Map<string, { value: string; line: number }>();
  private lastKind = 0;
  private first: FileProblem | undefined;
  private readonly latest: number;

  /** `exportedAt`: the header's; no record's date may be much later. */
  constructor(exportedAt: string) {
    this.latest = Date.parse(exportedAt) + CLOCK_ALLOWANCE_MS;
  }

  /** A date of the record (at `at`) no later than the export allows. */
  private dated(line: number, at: string, value: string | undefined): void {
    if (value !== undefined && Date.parse(value) > this.latest)
      this.refuse(line, `${at}: ${value} is later than the export that holds it (its header's exportedAt, and a day for clocks)`);
  }

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
    if ('createdAt' in record) this.dated(line, 'createdAt', record.createdAt);
    if ('updatedAt' in record) this.dated(line, 'updatedAt', record.updatedAt);
    // A relation is known by one of its sides: given again by its other side, it is the same relation.
    // A custom field is named by records' keys in any case (matched lower-cased): ids differing in case are one field.
    const [key, label] =
      record.kind === 'relation'
        ? [relationKey(record), `${record.entityId} ${record.type} ${record.targetId}`]
        : [record.kind === 'customField' ? record.id.toLowerCase() : record.id, record.id];
    const earlier = this.ids.get(record.kind)!.get(key);
    if (earlier !== undefined) this.refuse(line, `a second ${record.kind} record ${label} (the first is on line ${earlier})`);
    else this.ids.get(record.kind)!.set(key, line);
    const problem = recordFieldsProblem(record);
    if (problem) this.refuse(line, problem);
    for (const name of uniqueNamesOf(record)) {
      const first = this.taken.get(name.key);
      if (first) this.refuse(line, `${name.at}: ${name.refusal(first)}`);
      else this.taken.set(name.key, { value: name.value, line });
    }
    switch (record.kind) {
      case 'customField':
        this.customFields.set(record.id.toLowerCase(), record);
        break;
      case 'member':
        if (!this.memberEmails.has(record.id)) this.memberEmails.set(record.id, record.email.toLowerCase());
        (record.teams ?? []).forEach((t, i) => {
          this.expect(line, `teams.${i}.id`, 'team', t.id);
          this.dated(line, `teams.${i}.addedAt`, t.addedAt);
        });
        break;
      case 'entity':
        this.fields(line, record);
        this.dated(line, 'parent.joinedAt', record.parent?.joinedAt);
        this.entities.set(record.id, { type: record.type, parent: record.parent && { id: record.parent.id, type: record.parent.type }, line });
        break;
      case 'relation':
        if (this.entity(line, 'entityId', record.entityId, record.entityType) && this.entity(line, 'targetId', record.targetId, record.targetType))
          this.relation(line, record);
        break;
      case 'note': {
        this.fields(line, record);
        if (record.customer) this.entity(line, 'customer.id', record.customer.id, record.customer.type);
        const linked = new Set<string>();
        record.links.forEach((l, i) => {
          this.entity(line, `links.${i}.entityId`, l.entityId, l.entityType);
          this.dated(line, `links.${i}.ratedAt`, l.ratedAt);
          if (linked.has(l.entityId)) this.refuse(line, `links.${i}.entityId: the note links ${l.entityId} twice`);
          linked.add(l.entityId);
        });
        break;
      }
      case 'comment':
        this.expect(line, 'noteId', 'note', record.noteId);
        this.member(line, 'author', record.author);
        break;
    }
  }

  /** Each field a standard field of the record's type with a value the API stores, or a custom field of the file configured for the type. */
  private fields(line: number, record: EntityRecord | NoteRecord): void {
    const note = record.kind === 'note';
    // What the API stores on one item, the file may not exceed: the item would be refused part-way through the restore.
    const tooLarge = recordSizeProblem(`${note ? 'Note' : 'Entity'} ${record.id}`, record);
    if (tooLarge) this.refuse(line, `fields: ${tooLarge}`);
    const standard: readonly string[] = note ? NOTE_FIELDS : ENTITY_FIELDS[record.type];
    // The API creates nothing without a name and clears no name.
    if (record.fields.name === undefined) this.refuse(line, `fields.name: every ${note ? 'note' : 'entity'} has a name; this one has none`);
    for (const [key, value] of Object.entries(record.fields)) {
      const at = `fields.${key.slice(0, 100)}`;
      if (standard.includes(key)) {
        const problem = standardFieldProblem(record, key as StandardFieldId, value);
        if (problem) {
          this.refuse(line, problem);
          continue;
        }
        if ((MEMBER_FIELDS as readonly string[]).includes(key)) this.member(line, at, value as { id: string; email: string });
        if (!note && (REFERENCE_FIELDS as readonly string[]).includes(key)) {
          const kind = REFERENCED[key as ReferenceFieldId];
          (value as Array<{ id: string }>).forEach((v, i) => this.expect(line, `${at}.${i}.id`, kind, v.id));
        }
        if (!note && key === 'status') {
          const found = statusOf(record.type, value as { id: string; name: string });
          if ('problem' in found) this.refuse(line, `${at}: ${found.problem}`);
        }
      } else if (isUuid(key)) {
        const def = this.customFields.get(key.toLowerCase());
        if (!def || def.entityType !== record.type) this.refuse(line, `${at}: no customField record of the file configures it for ${aType(record.type)}`);
        // A select field's value is stored as its option's id, or its name when written before options had ids; a
        // deleted option's id stays on the records (reading as no value) and nothing keeps it: any string may be one.
        else if (def.fieldKind === 'select' ? typeof value !== 'string' : !z.safeParse(customValueSchema(def), value).success)
          this.refuse(line, `${at}: not a value of the ${def.fieldKind} field '${def.name.slice(0, 100)}'`);
      } else this.refuse(line, `${at}: no field of ${aType(record.type)}; its fields are ${standard.join(', ')} and its custom fields by id`);
    }
  }

  /** A reference to a record of `kind` (one of an earlier kind: it is in the file by now, or never). */
  private expect(line: number, at: string, kind: MoveKind, id: string): void {
    if (!this.ids.get(kind)!.has(id)) this.refuse(line, `${at}: no ${kind} record of the file has the id ${id}`);
  }

  /** A member named by its id and e-mail (an owner, a creator, a comment's author): a member of the file, by its own e-mail. */
  private member(line: number, at: string, ref: { id: string; email: string }): void {
    const email = this.memberEmails.get(ref.id);
    if (email === undefined) this.refuse(line, `${at}.id: no member record of the file has the id ${ref.id}`);
    else if (ref.email.toLowerCase() !== email)
      this.refuse(line, `${at}.email: member ${ref.id} (line ${this.ids.get('member')!.get(ref.id)}) has the e-mail '${email}', not '${ref.email}'`);
  }

  /** A reference to an entity of the type it says: whether it is one. */
  private entity(line: number, at: string, id: string, type: string): boolean {
    const found = this.entities.get(id);
    if (!found) this.refuse(line, `${at}: no entity record of the file has the id ${id}`);
    else if (found.type !== type) this.refuse(line, `${at}: ${id} is ${aType(found.type)} (line ${found.line}), not ${aType(type)}`);
    return found?.type === type;
  }

  /** A relation the API would create between its two entities (./relations.ts): one their types may have, not contradicting another. */
  private relation(line: number, r: RelationRecord): void {
    const why = relationViolation({ id: r.entityId, type: r.entityType }, r.type, { id: r.targetId, type: r.targetType });
    const contradiction = contradictionOf(r.type);
    if (why) this.refuse(line, `targetId: ${why}`);
    else if (contradiction && this.ids.get('relation')!.has(relationKey({ ...r, type: contradiction })))
      this.refuse(line, `targetId: ${contradictionProblem(r.entityId, contradiction, r.targetId)}`);
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
