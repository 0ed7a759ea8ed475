// How each kind of record is read from a Productboard v2 API (the source of `admin import
// productboard`): the list it comes from, and how one source record becomes the export format's
// records (lib/domain/schemas/workspace-export.ts) — in this service's vocabulary, with the source's
// ids (the writer maps them, lib/store/move/ids.ts). What has no place here is counted by reason in
// `skipped`, never silently dropped: a list item that is no record or has no id, a value the API
// would not store, a reference to a record the import left out (./admission.ts). A kind the source
// gets is one entry of SOURCE_KINDS.
import * as z from 'zod/mini';
import { CUSTOM_FIELD_KINDS, customValueSchema, ENTITY_TYPES, NOTE_TYPES, type CustomFieldKind, type NoteType } from '#lib/domain/configurations.ts';
import { ENTITY_FIELDS, NOTE_FIELDS } from '#lib/domain/entity-fields.ts';
import { standardFieldProblem } from '#lib/domain/export-file-check.ts';
import { colorFor, SELECT_COLORS, type SelectColor, type SelectValue } from '#lib/domain/field-values.ts';
import { aType, isEntityType, isHierarchyType, type EntityType } from '#lib/domain/hierarchy.ts';
import { inputProblem, isPlainObject, withoutValue } from '#lib/domain/input.ts';
import { REDACTED } from '#lib/domain/member-view.ts';
import { relationTargets } from '#lib/domain/relations.ts';
import { isoDateTime } from '#lib/domain/schemas/build.ts';
import { isUuid } from '#lib/domain/schemas/common.ts';
import type { StandardFieldId } from '#lib/domain/schemas/field-values.ts';
import { Metadata } from '#lib/domain/schemas/metadata.ts';
import type { CustomFieldRecord, MoveKind, MoveRecord, NoteRecord, TagValueRecord } from '#lib/domain/schemas/workspace-export.ts';
import { isImportance } from '#lib/domain/score.ts';
import { statusesOf } from '#lib/domain/statuses.ts';
import type { Admitted } from './admission.ts';
import type { SourceClient } from './source-client.ts';
import { UsageError } from '../admin/command.ts';

const SOURCE_SYSTEM = 'productboard';

/** A record as a Productboard v2 list gives it: only what the import reads, each part checked where it is used. */
export interface SourceRecord {
  id: string;
  type: string;
  fields?: Record<string, unknown>;
  relationships?: unknown;
  links?: unknown;
  metadata?: unknown;
  createdAt?: unknown;
  updatedAt?: unknown;
}

interface SourceRelationship {
  type: string;
  target: { id: string; type: string };
  importance?: unknown;
}

/** A configuration's field (entities' or notes'), with the JSON Schema of its value. */
interface SourceFieldConfiguration {
  id: string;
  name?: string;
  schema?: { type?: string; format?: string; enum?: unknown[]; properties?: { name?: { enum?: unknown[] } } };
}

/** What reading records needs: the client, the custom fields the source configures, the records let in so far, a tally of what is left out. */
export interface ReadContext {
  client: SourceClient;
  imported: Admitted;
  /** When the run began: the creation time of records the source gives none (members, custom fields). */
  importedAt: string;
  customFields: Map<string, { kind: CustomFieldKind; options?: string[]; values?: SelectValue[]; entityType: string }>;
  /** The type of the imported entity with this source id (read before the notes), undefined when none was imported. */
  entityType(sourceId: string): string | undefined;
  skip(reason: string, n?: number): void;
}

export interface SourceKind {
  /** The list the kind's records come from (a path under the base URL). */
  list: string;
  /** The records one item of that list becomes (a kind may make records of another: relations come with entities). */
  records(item: SourceRecord, ctx: ReadContext): Promise<MoveRecord[]>;
}

/** Fails the import on a value the source hid: it would be stored as if it were the value. */
function refuseRedacted(value: unknown, what: string): void {
  if (JSON.stringify(value ?? null).includes(`"${REDACTED}"`)) {
    throw new UsageError(
      `The source answered ${REDACTED} in ${what}: its token lacks the scope to read names and e-mails (members:pii:read, and users:pii:read for users). Nothing redacted is imported; give a token with those scopes.`,
    );
  }
}

/**
 * The list item as a record the kind's reader reads, or undefined (counted): an item that is no
 * object, or has no id the API keeps as a record's source id (a string of 1 to 255 characters, not
 * blank) — without one, two records would be one.
 */
export function sourceRecordOf(item: unknown, plural: string, ctx: Pick<ReadContext, 'skip'>): SourceRecord | undefined {
  if (!isPlainObject(item)) {
    ctx.skip(`items of the ${plural} list that are not records (left out)`);
    return undefined;
  }
  if (typeof item.id !== 'string' || inputProblem(Metadata, { source: { recordId: item.id } })) {
    ctx.skip(`${plural} without an id (none, not a string, blank or over 255 characters: left out)`);
    return undefined;
  }
  return item as unknown as SourceRecord;
}

/** A date-time as the API writes one: ISO 8601, with a time, in UTC or with an offset. */
const SOURCE_DATE = /* @__PURE__ */ (() => isoDateTime({ offset: true }))();

/**
 * The record's dates in UTC; one it does not give is undefined, and so is one that is no ISO 8601
 * date-time (counted): the record is imported with the date it would have without it.
 */
function datesOf(item: SourceRecord, plural: string, ctx: ReadContext): { createdAt?: string; updatedAt?: string } {
  const out: { createdAt?: string; updatedAt?: string } = {};
  for (const key of ['createdAt', 'updatedAt'] as const) {
    const v = item[key];
    if (v === undefined || v === null) continue;
    if (typeof v === 'string' && z.safeParse(SOURCE_DATE, v).success) out[key] = new Date(v).toISOString();
    else ctx.skip(`${plural} whose ${key} is not an ISO 8601 date-time (imported as if they had none)`);
  }
  return out;
}

/** The import's own metadata.source: where the record came from, its link only when the API would take it. */
const sourceMetadata = (item: SourceRecord, plural: string, ctx: ReadContext) => {
  if (isPlainObject(item.metadata) && isPlainObject(item.metadata.source) && Object.keys(item.metadata.source).length)
    ctx.skip(`metadata.source of a ${item.type} (replaced by the import's own)`);
  const source = { system: SOURCE_SYSTEM, recordId: item.id };
  const url = isPlainObject(item.links) ? (item.links.html ?? item.links.self) : undefined;
  if (typeof url !== 'string') return { source };
  const problem = inputProblem(Metadata, { source: { ...source, url } });
  if (!problem) return { source: { ...source, url } };
  ctx.skip(
    `${plural} with a link the API would not take as metadata.source.url (imported without it): ${withoutValue(problem).replace(/^'\/source\/url' /, '')}`,
  );
  return { source };
};

/** A custom field's value as this service stores it, or undefined when it has none here. */
function customValue(def: { kind: CustomFieldKind; options?: string[]; values?: SelectValue[] }, value: unknown): unknown {
  if (def.kind === 'select') {
    const name = typeof value === 'string' ? value : (value as { name?: unknown } | null)?.name;
    if (typeof name !== 'string' || !def.options?.includes(name)) return undefined;
    // With the source's values read, the option by its id (as records hold it); otherwise its name.
    return def.values ? def.values.find((v) => v.name === name)?.id : name;
  }
  return z.safeParse(customValueSchema({ fieldKind: def.kind }), value).success ? value : undefined;
}

/** A standard field's value as the API stores it, or undefined (with the reason counted). */
function standardValue(id: StandardFieldId, value: unknown, type: string, ctx: ReadContext): unknown {
  const note = (NOTE_TYPES as readonly string[]).includes(type);
  let v = value;
  if (id === 'status') {
    const name = (value as { name?: unknown } | null)?.name;
    const own = statusesOf(type as EntityType);
    const found = own.find((s) => typeof name === 'string' && s.name.toLowerCase() === name.toLowerCase());
    if (!found) {
      ctx.skip(`status of ${aType(type)} that is none of its statuses here (${own.map((s) => s.name).join(', ')})`);
      return undefined;
    }
    v = { id: found.id, name: found.name };
  } else if (id === 'tags' && note && Array.isArray(value)) v = value.map((t: { name?: unknown }) => ({ name: t?.name }));
  // An entity's tags and teams name the source's tag values and teams by id (mapped as every id is). One naming
  // a record left out (a tag value with a name over its limit, say) is dropped alone, not with the whole list.
  else if ((id === 'tags' || id === 'teams') && Array.isArray(value)) {
    const [kind, what] = id === 'tags' ? (['tagValue', 'a tag value'] as const) : (['team', 'a team'] as const);
    const named = value.map((t: { id?: unknown; name?: unknown }) => ({ id: typeof t?.id === 'string' ? t.id.toLowerCase() : t?.id, name: t?.name }));
    const kept = named.filter((t) => typeof t.id === 'string' && ctx.imported.has(kind, t.id));
    if (kept.length < named.length) ctx.skip(`entity ${id} naming ${what} not imported (left off the entity)`, named.length - kept.length);
    v = kept;
  } else if ((id === 'owner' || id === 'creator') && value && typeof value === 'object')
    v = { id: (value as { id?: unknown }).id, email: (value as { email?: unknown }).email };
  // By the rule restore holds the value to (a note's content: as a write takes it, each conversation part once).
  if (standardFieldProblem(note ? { kind: 'note', type: type as NoteType } : { kind: 'entity', type: type as EntityType }, id, v)) {
    ctx.skip(`${id} of a ${type} in a shape this service does not store`);
    return undefined;
  }
  // A member by its id and with its e-mail, as restore holds an owner to: one the import left out (no e-mail, say) is no owner.
  if (id === 'owner' || id === 'creator') {
    const ref = v as { id: string; email: string };
    if (ctx.imported.memberEmail(ref.id) !== ref.email.toLowerCase()) {
      ctx.skip(`${id}s naming no imported member (left unset)`);
      return undefined;
    }
  }
  return v;
}

/** Whether the record has a name the API would take; one without is left out whole (every record has a name), and counted. */
function named(item: SourceRecord, record: { kind: 'entity'; type: EntityType } | { kind: 'note'; type: NoteType }, ctx: ReadContext): boolean {
  const name = item.fields?.name;
  if (name !== undefined && name !== null && !standardFieldProblem(record, 'name', name)) return true;
  ctx.skip(`${record.kind === 'note' ? 'notes' : 'entities'} without a name the API would take (left out)`);
  return false;
}

function fieldsOf(item: SourceRecord, type: string, standard: readonly StandardFieldId[], ctx: ReadContext): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(item.fields ?? {})) {
    if (value === null || value === undefined) continue;
    if ((standard as readonly string[]).includes(key)) {
      const v = standardValue(key as StandardFieldId, value, type, ctx);
      if (v !== undefined) out[key] = v;
    } else if (isUuid(key)) {
      const def = ctx.customFields.get(key.toLowerCase());
      if (def && !ctx.imported.has('customField', key.toLowerCase())) {
        ctx.skip('values of custom fields not imported');
        continue;
      }
      const v = def && def.entityType === type ? customValue(def, value) : undefined;
      if (v !== undefined) out[key.toLowerCase()] = v;
      else
        ctx.skip(
          def ? `values of ${def.kind} custom fields of a ${type} in a shape the kind cannot hold` : `values of custom fields of a kind this service has not`,
        );
    } else ctx.skip(`field ${String(key)} of a ${type} (no such field here)`);
  }
  return out;
}

const isRelationship = (r: unknown): r is SourceRelationship =>
  isPlainObject(r) && typeof r.type === 'string' && isPlainObject(r.target) && typeof r.target.id === 'string' && typeof r.target.type === 'string';

/** Every relationship of a record: those inline, and the rest from their `links.next`; one that is no relationship with a target is left out (counted). */
async function relationshipsOf(item: SourceRecord, ctx: ReadContext): Promise<SourceRelationship[]> {
  const given = item.relationships;
  const data = isPlainObject(given) ? given.data : undefined;
  if ((given !== undefined && given !== null && !isPlainObject(given)) || (data !== undefined && data !== null && !Array.isArray(data)))
    ctx.skip('relationships given as something else than a list (none read)');
  const rels: unknown[] = Array.isArray(data) ? Array.from(data as unknown[]) : [];
  const next = isPlainObject(given) && isPlainObject(given.links) ? given.links.next : undefined;
  if (typeof next === 'string' && next !== '') for await (const page of ctx.client.pages(next)) rels.push(...page.data);
  const kept = rels.filter(isRelationship);
  if (kept.length < rels.length) ctx.skip('relationships that are not records with a target (left out)', rels.length - kept.length);
  return kept;
}

const NOTE_TYPE_NAMES: Record<string, NoteRecord['type']> = {
  textNote: 'textNote',
  simple: 'textNote',
  conversationNote: 'conversationNote',
  conversation: 'conversationNote',
};

/** The custom fields the source configures (entity and note configurations), of the kinds this service has. */
export async function readCustomFields(ctx: ReadContext): Promise<CustomFieldRecord[]> {
  const out: CustomFieldRecord[] = [];
  ctx.customFields.clear();
  for (const list of ['/entities/configurations', '/notes/configurations']) {
    for await (const page of ctx.client.pages(list)) {
      for (const conf of page.data) {
        if (!isPlainObject(conf)) {
          ctx.skip('configurations that are not records (left out)');
          continue;
        }
        const type = String(conf.type);
        if (!(ENTITY_TYPES as readonly string[]).includes(type) && !(NOTE_TYPES as readonly string[]).includes(type)) continue;
        for (const f of Object.values(isPlainObject(conf.fields) ? conf.fields : {})) {
          // The standard fields (name, status, …) have ids that are no uuid.
          if (!isPlainObject(f) || !isUuid(f.id)) continue;
          const schema = (isPlainObject(f.schema) ? f.schema : {}) as NonNullable<SourceFieldConfiguration['schema']>;
          // A select field's options: the enum of its value, or of the `name` of its `{id, name}` value.
          const names = schema.enum ?? schema.properties?.name?.enum;
          const options = Array.isArray(names) ? names.filter((o): o is string => typeof o === 'string') : undefined;
          const kind: CustomFieldKind | undefined = options
            ? 'select'
            : schema.type === 'number'
              ? 'number'
              : schema.type === 'string' && schema.format === 'date'
                ? 'date'
                : schema.type === 'string'
                  ? 'text'
                  : undefined;
          if (!kind || !(CUSTOM_FIELD_KINDS as readonly string[]).includes(kind)) {
            ctx.skip(`custom field of a kind this service has not (${String(f.name)} on ${type})`);
            continue;
          }
          const id = f.id.toLowerCase();
          // A field given twice (on two types, say): the first kept, as a record the source lists twice is.
          if (ctx.customFields.has(id)) {
            ctx.skip('custom fields the source listed more than once (the first kept)');
            continue;
          }
          // An entity select field's options with their ids (the values route lists them), so they keep them here.
          const values = options && (ENTITY_TYPES as readonly string[]).includes(type) ? await readSelectValues(ctx, id, options) : undefined;
          ctx.customFields.set(id, { kind, entityType: type, ...(options ? { options } : {}), ...(values ? { values } : {}) });
          out.push({
            kind: 'customField',
            id,
            entityType: type,
            // No name is one the API refuses (the field is left out), not the name "undefined".
            name: typeof f.name === 'string' ? f.name : '',
            fieldKind: kind,
            ...(options ? { options } : {}),
            ...(values ? { values } : {}),
            createdAt: ctx.importedAt,
          });
        }
      }
    }
  }
  return out;
}

/** A source value's color, when it is one this service has. */
const colorOf = (v: Record<string, unknown>): SelectColor | undefined => {
  const color = isPlainObject(v.fields) ? v.fields.color : undefined;
  return (SELECT_COLORS as readonly unknown[]).includes(color) ? (color as SelectColor) : undefined;
};

/** A field value's name, when the source gives it as a string. */
const nameOf = (v: Record<string, unknown>): string | undefined => (isPlainObject(v.fields) && typeof v.fields.name === 'string' ? v.fields.name : undefined);

/**
 * A select field's options as the source lists them (GET /v2/entities/fields/{id}/values), in the
 * order of its configuration; undefined when the list does not hold each option once with an id.
 */
async function readSelectValues(ctx: ReadContext, fieldId: string, options: readonly string[]): Promise<SelectValue[] | undefined> {
  const listed = new Map<string, SelectValue>();
  for await (const page of ctx.client.pages(`/entities/fields/${fieldId}/values`)) {
    for (const v of page.data) {
      const name = isPlainObject(v) ? nameOf(v) : undefined;
      if (!isPlainObject(v) || !isUuid(v.id) || name === undefined || listed.has(name)) return undefined;
      const id = v.id.toLowerCase();
      listed.set(name, { id, name, color: colorOf(v) ?? colorFor(id) });
    }
  }
  if (listed.size !== options.length || options.some((o) => !listed.has(o))) return undefined;
  return options.map((name, seq) => ({ ...listed.get(name)!, seq }));
}

/** The tag values the source lists (oldest first): each a millisecond after the one before from the run's start, so they list here in the source's order. */
export async function readTagValues(ctx: ReadContext): Promise<TagValueRecord[]> {
  const out: TagValueRecord[] = [];
  const start = Date.parse(ctx.importedAt);
  for await (const page of ctx.client.pages('/entities/fields/tags/values')) {
    for (const v of page.data) {
      const name = isPlainObject(v) ? nameOf(v) : undefined;
      if (!isPlainObject(v) || !isUuid(v.id) || name === undefined || name.trim() === '') {
        ctx.skip('tag values without an id or a name');
        continue;
      }
      const color = colorOf(v);
      if (!color) ctx.skip('tag values of a color this service has not (given the default)');
      out.push({
        kind: 'tagValue',
        id: v.id.toLowerCase(),
        name,
        color: color ?? colorFor(v.id.toLowerCase()),
        createdAt: new Date(start + out.length).toISOString(),
      });
    }
  }
  return out;
}

export const SOURCE_KINDS: { [K in MoveKind]: SourceKind | { notRead: string } } = {
  team: {
    list: '/teams',
    records: (t, ctx) => {
      const f = t.fields ?? {};
      if (typeof f.name !== 'string' || typeof f.handle !== 'string') {
        ctx.skip('teams without a name or a handle');
        return Promise.resolve([]);
      }
      const dates = datesOf(t, 'teams', ctx);
      const createdAt = dates.createdAt ?? ctx.importedAt;
      return Promise.resolve([
        {
          kind: 'team',
          id: t.id,
          name: f.name,
          handle: f.handle,
          ...(typeof f.description === 'string' ? { description: f.description } : {}),
          createdAt,
          updatedAt: dates.updatedAt ?? createdAt,
        },
      ]);
    },
  },
  tagValue: { notRead: "read from the tags field's values (readTagValues)" },
  comment: { notRead: "Productboard's API lists no note comments" },
  member: {
    list: '/members?includeDisabled=true',
    records: (m, ctx) => {
      const f = m.fields ?? {};
      refuseRedacted(f, 'a member');
      const role = f.role === 'contributor' ? 'viewer' : f.role;
      if (f.role === 'contributor') ctx.skip('contributor members (imported as viewers)');
      if ((role !== 'admin' && role !== 'maker' && role !== 'viewer') || typeof f.email !== 'string') {
        ctx.skip('members without an e-mail or a role');
        return Promise.resolve([]);
      }
      // The source does not say since when a member is in a team: since the run began.
      const teams = Array.isArray(f.teams)
        ? f.teams.flatMap((t: { id?: unknown }) => (typeof t?.id === 'string' ? [{ id: t.id, addedAt: ctx.importedAt }] : []))
        : [];
      return Promise.resolve([
        {
          kind: 'member',
          id: m.id,
          email: f.email,
          name: typeof f.name === 'string' ? f.name : f.email,
          role,
          active: f.disabled !== true,
          createdAt: ctx.importedAt,
          ...(teams.length ? { teams } : {}),
        },
      ]);
    },
  },
  customField: { notRead: 'read from the configurations (readCustomFields)' },
  entity: {
    list: '/entities',
    records: async (e, ctx) => {
      const type = String(e.type) as EntityType;
      if (!(ENTITY_TYPES as readonly string[]).includes(type)) {
        ctx.skip(`entities of type ${type} (not served here yet)`);
        return [];
      }
      refuseRedacted(e.fields, `a ${type}`);
      if (!named(e, { kind: 'entity', type }, ctx)) return [];
      const dates = datesOf(e, 'entities', ctx);
      const createdAt = dates.createdAt ?? ctx.importedAt;
      const rels = await relationshipsOf(e, ctx);
      const parent = rels.find((r) => r.type === 'parent')?.target;
      const out: MoveRecord[] = [];
      const related = new Set<string>();
      for (const r of rels) {
        if (r.type !== 'link' && r.type !== 'isBlocking') continue;
        const target = r.target;
        if (r.type === 'link' && !(e.id < target.id)) continue;
        if (!isEntityType(target.type) || !relationTargets(type, r.type).includes(target.type)) {
          ctx.skip(`${r.type} relations between ${aType(type)} and ${aType(target.type)}`);
          continue;
        }
        // Given twice, it is still one relation (written once, counted once).
        if (related.has(`${r.type} ${target.id}`)) {
          ctx.skip('relations the source listed more than once (the first kept)');
          continue;
        }
        related.add(`${r.type} ${target.id}`);
        out.push({
          kind: 'relation',
          entityId: e.id,
          entityType: type,
          type: r.type,
          targetId: target.id,
          targetType: target.type,
          createdAt,
        });
      }
      out.unshift({
        kind: 'entity',
        id: e.id,
        type,
        ...(parent ? { parent: { id: parent.id, type: parent.type as EntityType } } : {}),
        fields: fieldsOf(e, type, ENTITY_FIELDS[type], ctx),
        metadata: sourceMetadata(e, 'entities', ctx),
        createdAt,
        updatedAt: dates.updatedAt ?? createdAt,
      });
      return out;
    },
  },
  relation: { notRead: 'read with the entities (their relationships)' },
  note: {
    list: '/notes',
    records: async (n, ctx) => {
      const type = NOTE_TYPE_NAMES[String(n.type)];
      if (!type) {
        ctx.skip(`notes of type ${String(n.type)}`);
        return [];
      }
      refuseRedacted(n.fields, 'a note');
      if (!named(n, { kind: 'note', type }, ctx)) return [];
      const dates = datesOf(n, 'notes', ctx);
      const updatedAt = dates.updatedAt ?? dates.createdAt ?? ctx.importedAt;
      const rels = await relationshipsOf(n, ctx);
      let customer = rels.find((r) => r.type === 'customer')?.target;
      if (customer && customer.type !== 'user' && customer.type !== 'company') ctx.skip(`note customers of type ${customer.type}`);
      else if (customer && ctx.entityType(customer.id) !== customer.type) {
        ctx.skip('note customers the source did not list (imported without its customer)');
        customer = undefined;
      }
      const links: NoteRecord['links'] = [];
      for (const r of rels) {
        if (r.type !== 'link') continue;
        if (!isHierarchyType(r.target.type)) {
          ctx.skip(`note links to a ${r.target.type}`);
          continue;
        }
        // Only to what was imported, once per entity: a link item is one per (note, entity).
        if (ctx.entityType(r.target.id) !== r.target.type) {
          ctx.skip('note links to entities not imported');
          continue;
        }
        if (links.some((l) => l.entityId === r.target.id)) {
          ctx.skip('note links repeated to one entity (the first kept)');
          continue;
        }
        if (!isImportance(r.importance)) ctx.skip('note links without an importance (imported as unknown)');
        // Productboard does not say when a link was rated: the note's last update stands for it (README, "Import from Productboard").
        links.push({ entityId: r.target.id, entityType: r.target.type, importance: isImportance(r.importance) ? r.importance : 'unknown', ratedAt: updatedAt });
      }
      return [
        {
          kind: 'note',
          id: n.id,
          type,
          fields: fieldsOf(n, type, NOTE_FIELDS, ctx),
          ...(customer && (customer.type === 'user' || customer.type === 'company') ? { customer: { id: customer.id, type: customer.type } } : {}),
          metadata: sourceMetadata(n, 'notes', ctx),
          createdAt: dates.createdAt ?? updatedAt,
          updatedAt,
          links,
        },
      ];
    },
  },
  webhook: { notRead: 'webhook subscriptions are not imported: their signing secrets cannot be read' },
};
