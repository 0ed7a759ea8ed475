// Query parameters of Productboard's list filters (listEntities, listNotes, the relationship lists):
// each defined once here, read by lib/http/list-filters.ts into the predicates of
// lib/domain/filters.ts.
// Module-level schemas are built in `/* @__PURE__ */` arrows so bundles drop unused ones (./common.ts).
import * as z from 'zod/mini';
import { doc } from '#lib/domain/schemas/doc.ts';
import { isoDateTime, strictObject } from './build.ts';
import { Email, nonBlank, Uuid } from './common.ts';
import { MAX_NAME } from './field-values.ts';
import { utcInstant } from '../filters.ts';

/**
 * `status[id]`: a status value of some entity type (lib/domain/statuses.ts). An id no status has
 * matches nothing, as a team or an owner that does not exist: a filter value finds no record.
 */
export const StatusIdParameter = /* @__PURE__ */ (() =>
  doc(Uuid, 'A status id (of any entity type: GET /v2/entities/fields/status/values); one no status has matches nothing'))();

/** `status[name]`: the name of a status value of some entity type, any case; a name no status has matches nothing. */
export const StatusNameParameter = /* @__PURE__ */ (() =>
  doc(nonBlank(MAX_NAME), 'A status name, compared case-insensitively (the statuses of that name of the types listed); one no status has matches nothing'))();

/** An instant with its zone (`Z` or `±hh:mm`); lib/domain/filters.ts utcInstant reads it as UTC. */
export const DateTimeParameter = /* @__PURE__ */ (() =>
  doc(
    isoDateTime(
      { offset: true },
      // First, so the refusal names the precision rather than the calendar (utcInstant takes 9 digits at most).
      z.refine((v) => !/\.\d{10}/.test(v), { error: 'has more than 9 digits in its fraction of a second; nanoseconds are the finest precision taken' }),
      z.refine((v) => utcInstant(v) !== undefined, { error: 'is not a date-time the calendar has' }),
    ),
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
