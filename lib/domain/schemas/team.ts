// Teams as Productboard's teams API reads and writes them (/v2/teams, /v2/teams/search,
// /v2/teams/{id}, /v2/teams/{id}/members); the store is lib/store/teams.ts, the views
// lib/domain/team-view.ts.
// Module-level schemas are built in `/* @__PURE__ */` arrows so bundles drop unused ones (./common.ts).
import * as z from 'zod/mini';
import { doc } from '#lib/domain/schemas/doc.ts';
import { checkedArray, checkedFormat, checkedString, strictObject } from './build.ts';
import { DateTime, Email, listOf, nonBlank, oneOrList, pageParameters, SelfLinks, Url, Uuid, dataOf } from './common.ts';
import { REDACTED } from '../member-view.ts';

const MAX_TEAM_NAME = 255;
const MAX_TEAM_DESCRIPTION = 10_000;
/** Member references one membership operation takes at most (Productboard's limit). */
const MAX_TEAM_MEMBER_REFS = 100;

const TeamName = /* @__PURE__ */ (() => nonBlank(MAX_TEAM_NAME))();
const TeamHandle = /* @__PURE__ */ (() =>
  doc(
    checkedFormat('handle', /^[a-z0-9]+$/, z.minLength(1), z.maxLength(MAX_TEAM_NAME)),
    'Lower-case letters and digits, unique in the workspace (for @mentions)',
  ))();
const TeamDescription = /* @__PURE__ */ (() => checkedString(z.maxLength(MAX_TEAM_DESCRIPTION)))();
/** A team's fields as a create gives them (a restored team record is held to them too). */
export const TeamFields = /* @__PURE__ */ (() => strictObject({ name: TeamName, handle: TeamHandle, description: z.optional(TeamDescription) }))();

export const TeamPath = /* @__PURE__ */ (() => strictObject({ id: Uuid }))();

export const CreateTeamBody = /* @__PURE__ */ (() =>
  doc(
    strictObject({
      data: strictObject({ fields: TeamFields }),
    }),
    { id: 'CreateTeamBody' },
  ))();

/** A member by id or by e-mail, as a membership operation names it. */
export const TeamMemberRef = /* @__PURE__ */ (() =>
  z.union([strictObject({ id: Uuid }), strictObject({ email: Email })], { error: 'must name a member: {id} or {email}' }))();
export type TeamMemberRef = z.output<typeof TeamMemberRef>;

const MembersPatch = /* @__PURE__ */ (() =>
  z.union([
    strictObject({
      op: z.enum(['addItems', 'removeItems', 'set']),
      path: z.literal('members'),
      value: checkedArray(TeamMemberRef, z.maxLength(MAX_TEAM_MEMBER_REFS)),
    }),
    strictObject({ op: z.literal('clear'), path: z.literal('members') }),
  ]))();
export type MembersPatch = z.output<typeof MembersPatch>;

/** `fields` (null clears the description) and/or `patch` of the members, applied in order. */
export const UpdateTeamBody = /* @__PURE__ */ (() =>
  doc(
    strictObject({
      data: strictObject(
        {
          fields: z.optional(
            strictObject({ name: z.optional(TeamName), handle: z.optional(TeamHandle), description: z.optional(z.nullable(TeamDescription)) }),
          ),
          patch: z.optional(checkedArray(MembersPatch, z.minLength(1), z.maxLength(100))),
        },
        z.refine((d) => d.fields !== undefined || d.patch !== undefined, { error: "changes nothing: give 'fields', 'patch' or both" }),
      ),
    }),
    { id: 'UpdateTeamBody' },
  ))();

const TextFilter = /* @__PURE__ */ (() => checkedString(z.minLength(1), z.maxLength(MAX_TEAM_NAME)))();

export const ListTeamsQuery = /* @__PURE__ */ (() =>
  strictObject({
    name: z.optional(doc(TextFilter, 'The team with this name, compared case-insensitively')),
    handle: z.optional(doc(TextFilter, 'The team with this handle, compared case-insensitively')),
    query: z.optional(doc(TextFilter, 'Teams whose name or handle contains this, compared case-insensitively')),
    ...pageParameters,
  }))();

export const SearchTeamsQuery = /* @__PURE__ */ (() => strictObject(pageParameters))();

/** Productboard's `{data: {filter?, search?}}`: filters of one kind are alternatives, kinds and search must all hold. */
export const SearchTeamsBody = /* @__PURE__ */ (() =>
  doc(
    strictObject({
      data: z.optional(
        strictObject({
          filter: z.optional(
            strictObject({
              id: z.optional(oneOrList(Uuid)),
              fields: z.optional(strictObject({ name: z.optional(oneOrList(TextFilter)), handle: z.optional(oneOrList(TextFilter)) })),
            }),
          ),
          search: z.optional(strictObject({ query: z.optional(TextFilter) })),
        }),
      ),
    }),
    { id: 'SearchTeamsBody' },
  ))();
export type SearchTeamsBody = z.output<typeof SearchTeamsBody>;

export const TeamMembersQuery = /* @__PURE__ */ (() => strictObject(pageParameters))();

// ---- Read shapes.

const TeamLinks = /* @__PURE__ */ (() => strictObject({ self: Url, members: Url, html: Url }))();
const TeamReference = /* @__PURE__ */ (() => doc(strictObject({ id: Uuid, type: z.literal('team'), links: TeamLinks }), { id: 'TeamReference' }))();
export const TeamReferenceResponse = /* @__PURE__ */ (() => doc(dataOf(TeamReference), { id: 'TeamReferenceResponse' }))();
const Team = /* @__PURE__ */ (() =>
  doc(
    strictObject({
      id: Uuid,
      type: z.literal('team'),
      fields: strictObject({
        name: z.string(),
        handle: z.string(),
        description: z.optional(z.string()),
        avatarUrl: doc(z.null(), 'Teams have no avatar here: always null'),
      }),
      links: TeamLinks,
      createdAt: DateTime,
      updatedAt: DateTime,
    }),
    { id: 'Team' },
  ))();
export const TeamResponse = /* @__PURE__ */ (() => doc(dataOf(Team), { id: 'TeamResponse' }))();
export const TeamList = /* @__PURE__ */ (() => doc(listOf(Team), { id: 'TeamList' }))();

const Redacted = /* @__PURE__ */ (() => doc(z.literal(REDACTED), 'The value, without the members:pii:read scope'))();
const TeamMember = /* @__PURE__ */ (() =>
  doc(
    strictObject({
      id: Uuid,
      type: z.literal('member'),
      fields: strictObject({ name: z.union([z.string(), Redacted]), email: z.union([Email, Redacted]) }),
      links: SelfLinks,
    }),
    { id: 'TeamMember' },
  ))();
export const TeamMemberList = /* @__PURE__ */ (() => doc(listOf(TeamMember), { id: 'TeamMemberList' }))();
