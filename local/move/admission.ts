// What `admin import productboard` writes, held record by record to the rules restore holds an
// export file to (lib/domain/export-file-check.ts), so that the workspace it makes, exported,
// restores: each record of its line's shape (lib/domain/schemas/workspace-export.ts), its own fields
// as the API takes them, no name the API keeps to one record on a second one
// (lib/domain/export-record-fields.ts). A record that breaks one is left out and counted by reason,
// never cut to fit. What was let in is known here, so that a reference to a record left out is
// dropped, and counted, from the record that makes it: a member's teams here, once the member is let
// in; an entity's and a note's owner, creator, tags and teams where their fields are read
// (./productboard-kinds.ts), before the fields' shapes are checked.
import { recordFieldsProblem, uniqueNamesOf } from '#lib/domain/export-record-fields.ts';
import { inputProblem, withoutValue } from '#lib/domain/input.ts';
import { MoveRecord, type MoveKind } from '#lib/domain/schemas/workspace-export.ts';

/** A kind's records, as a reason counts them. */
const PLURAL: Record<MoveKind, string> = {
  team: 'teams',
  member: 'members',
  customField: 'custom fields',
  tagValue: 'tag values',
  entity: 'entities',
  relation: 'relations',
  note: 'notes',
  comment: 'comments',
  webhook: 'webhooks',
};

/** What the records read later may refer to: the records let in so far. */
export interface Admitted {
  /** Whether the record of `kind` with this (source) id was let in. */
  has(kind: MoveKind, id: string): boolean;
  /** The e-mail (lower-cased) of the member with this id that was let in; undefined when none was. */
  memberEmail(id: string): string | undefined;
}

export class Admission implements Admitted {
  private readonly ids = new Map<MoveKind, Set<string>>();
  private readonly emails = new Map<string, string>();
  /** Each name the API keeps to one record (uniqueNamesOf's key), with the id of the record that has it. */
  private readonly taken = new Map<string, string>();

  constructor(private readonly skip: (reason: string, n?: number) => void) {}

  /** The record as it may be written, or undefined when it is left out; what is left out is counted. */
  admit<R extends MoveRecord>(record: R): R | undefined {
    // In the API's words without the value, so one rule's refusals count under one reason.
    // By its line's schema first, as restore reads it.
    const problem = inputProblem(MoveRecord, record) ?? recordFieldsProblem(record);
    if (problem) {
      this.skip(`${PLURAL[record.kind]} the API would not take: ${withoutValue(problem)}`);
      return undefined;
    }
    const id = 'id' in record ? record.id : undefined;
    const names = uniqueNamesOf(record);
    // A record the source lists twice holds its own names (the writer writes it once).
    const clash = names.find((n) => this.taken.has(n.key) && this.taken.get(n.key) !== id);
    if (clash) {
      this.skip(`${PLURAL[record.kind]} with the ${clash.at === 'email' ? 'e-mail' : clash.at} of one imported before`);
      return undefined;
    }
    if (id === undefined) return record;
    for (const n of names) this.taken.set(n.key, id);
    if (!this.ids.has(record.kind)) this.ids.set(record.kind, new Set());
    this.ids.get(record.kind)!.add(id);
    if (record.kind !== 'member') return record;
    this.emails.set(id, record.email.toLowerCase());
    const teams = (record.teams ?? []).filter((t) => this.has('team', t.id));
    if (teams.length === (record.teams ?? []).length) return record;
    this.skip('team memberships of a team not imported (left off the member)', record.teams!.length - teams.length);
    const { teams: _all, ...rest } = record;
    return (teams.length ? { ...rest, teams } : rest) as R;
  }

  has(kind: MoveKind, id: string): boolean {
    return this.ids.get(kind)?.has(id) ?? false;
  }

  memberEmail(id: string): string | undefined {
    return this.emails.get(id);
  }
}
