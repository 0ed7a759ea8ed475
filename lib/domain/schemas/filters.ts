// Query parameters of Productboard's list filters (listEntities, listNotes, the relationship lists):
// each defined once here, read by lib/http/list-filters.ts into the predicates of
// lib/domain/filters.ts. A filter the data model cannot answer is still a defined parameter, and
// any value of it is refused with the reason.
// Module-level schemas are built in `/* @__PURE__ */` arrows so bundles drop unused ones (./common.ts).
import * as z from 'zod/mini';
import { doc } from '#lib/domain/schemas/doc.ts';
import { checkedFormat, checkedString, isoDateTime, strictObject } from './build.ts';
import { Email, nonBlank, Uuid, UUID_PATTERN } from './common.ts';
import { MAX_NAME, STATUSES } from './field-values.ts';
import { utcInstant } from '../filters.ts';

/** A parameter this service defines but cannot answer: any value is refused, the detail says why. */
export const refusedParameter = (why: string) =>
  z.optional(doc(checkedString(z.refine(() => false, { error: why })), `Not supported: ${why}`));

const statusList = /* @__PURE__ */ (() => STATUSES.map((s) => `${s.name} (${s.id})`).join(', '))();

/** `status[id]`: one of the built-in statuses. */
export const StatusIdParameter = /* @__PURE__ */ (() => doc(
  checkedFormat('uuid', UUID_PATTERN, z.toLowerCase(), z.refine((id) => STATUSES.some((s) => s.id === id), { error: `is no status id; the statuses are ${statusList}` })),
  'A status id',
))();

/** `status[name]`: a built-in status's name, any case. */
export const StatusNameParameter = /* @__PURE__ */ (() => doc(
  checkedString(z.refine((name) => STATUSES.some((s) => s.name.toLowerCase() === name.toLowerCase()), { error: `names no status; the statuses are ${STATUSES.map((s) => s.name).join(', ')}` })),
  'A status name, compared case-insensitively',
))();

/** An instant with its zone (`Z` or `±hh:mm`); lib/domain/filters.ts utcInstant reads it as UTC. */
export const DateTimeParameter = /* @__PURE__ */ (() => doc(
  isoDateTime({ offset: true }, z.refine((v) => utcInstant(v) !== undefined, { error: 'is not a date-time the calendar has' })),
  'ISO 8601 date-time with a zone, e.g. 2024-01-31T00:00:00Z',
))();

/** `{from?, to?}` of a search filter (createdAt, updatedAt): inclusive bounds, instants with their zone. */
export const DateRange = /* @__PURE__ */ (() => strictObject({ from: z.optional(DateTimeParameter), to: z.optional(DateTimeParameter) }))();

/** `name`: a case-insensitive part of the name. */
export const NameParameter = /* @__PURE__ */ (() => doc(nonBlank(MAX_NAME), 'Keeps records whose name contains this, compared case-insensitively'))();

/** A member given by id or by e-mail (`owner[id]`, `owner[email]`, `creator[...]`); both given must agree. */
export const memberParameters = (role: 'owner' | 'creator') => ({
  id: z.optional(doc(Uuid, `The ${role}'s member id`)),
  email: z.optional(doc(Email, `The ${role}'s e-mail, compared case-insensitively`)),
});

/** `metadata[source][system]`, `metadata[source][recordId]`: exact matches on the record's source. */
export const sourceParameters = /* @__PURE__ */ (() => ({
  'metadata[source][system]': z.optional(doc(nonBlank(MAX_NAME), 'The source system, matched exactly')),
  'metadata[source][recordId]': z.optional(doc(nonBlank(MAX_NAME), 'The record id in the source system, matched exactly')),
}))();
