// Members as Productboard's members API shows them (GET /v2/members, GET /v2/members/{id}; the view
// is lib/domain/member-view.ts) and the query parameters of the list.
// Module-level schemas are built in `/* @__PURE__ */` arrows so bundles drop unused ones (./common.ts).
import * as z from 'zod/mini';
import { doc } from '#lib/domain/schemas/doc.ts';
import { checkedString, strictObject } from './build.ts';
import { dataOf, Email, listOf, oneOrList, pageParameters, repeated, Url, Uuid } from './common.ts';
import { REDACTED } from '../member-view.ts';
import { ROLES } from '../scopes.ts';

/** What a value reads without the scope that shows it (members:pii:read). */
const Redacted = /* @__PURE__ */ (() => doc(z.literal(REDACTED), 'The value, without the members:pii:read scope'))();

const Member = /* @__PURE__ */ (() =>
  doc(
    strictObject({
      id: Uuid,
      type: z.literal('member'),
      fields: strictObject({
        name: z.union([z.string(), Redacted]),
        username: doc(z.union([z.string(), Redacted]), "The member's e-mail: this service has no separate user names"),
        email: z.union([Email, Redacted]),
        role: z.enum(ROLES),
        disabled: z.boolean(),
        invitationPending: doc(z.boolean(), 'Always false: members are added, never invited'),
        teams: doc(z.array(strictObject({ id: Uuid, name: z.string(), links: strictObject({ self: Url }) })), 'The teams the member belongs to'),
      }),
      links: strictObject({ self: Url, html: Url }),
    }),
    { id: 'Member' },
  ))();
export const MemberResponse = /* @__PURE__ */ (() => doc(dataOf(Member), { id: 'MemberResponse' }))();
export const MemberList = /* @__PURE__ */ (() => doc(listOf(Member), { id: 'MemberList' }))();

/** Productboard's roles; `contributor` is none of ours, so it matches no member. */
export const MEMBER_ROLE_FILTERS = [...ROLES, 'contributor'] as const;

export const ListMembersQuery = /* @__PURE__ */ (() =>
  strictObject({
    query: z.optional(doc(checkedString(z.minLength(1), z.maxLength(255)), 'A case-insensitive part of the name or the e-mail; needs members:pii:read')),
    'roles[]': repeated(z.enum(MEMBER_ROLE_FILTERS)),
    includeDisabled: z.optional(doc(z.boolean(), 'Deactivated members too (default false)')),
    includeInvitationPending: z.optional(doc(z.boolean(), 'No member is invitation-pending here, so this changes nothing')),
    includeInvited: z.optional(doc(z.boolean(), 'Deprecated name of includeInvitationPending')),
    ...pageParameters,
  }))();

export const MemberPath = /* @__PURE__ */ (() => strictObject({ id: Uuid }))();

export const SearchMembersQuery = /* @__PURE__ */ (() => strictObject(pageParameters))();

const MemberText = /* @__PURE__ */ (() => checkedString(z.minLength(1), z.maxLength(255)))();

/**
 * Productboard's `{data: {filter?, search?, return?}}`: filters of one kind are alternatives, the
 * kinds and the search must all hold. The e-mail filter and the search read members' e-mails and
 * names, so they need members:pii:read.
 */
export const SearchMembersBody = /* @__PURE__ */ (() =>
  doc(
    strictObject({
      data: z.optional(
        strictObject({
          filter: z.optional(
            strictObject({
              id: z.optional(oneOrList(Uuid)),
              fields: z.optional(
                strictObject({
                  email: z.optional(doc(oneOrList(Email), 'Compared case-insensitively; needs members:pii:read')),
                  role: z.optional(oneOrList(z.enum(MEMBER_ROLE_FILTERS))),
                  disabled: z.optional(doc(z.boolean(), 'true: only deactivated members; false: only active ones (the default)')),
                  invitationPending: z.optional(doc(z.boolean(), 'true: only members with a pending invitation, which no member is here')),
                }),
              ),
            }),
          ),
          search: z.optional(strictObject({ query: z.optional(doc(MemberText, 'A case-insensitive part of the name or the e-mail; needs members:pii:read')) })),
          return: z.optional(
            strictObject({
              includeDisabled: z.optional(doc(z.boolean(), 'Deactivated members too (filter.fields.disabled wins when given)')),
              includeInvitationPending: z.optional(doc(z.boolean(), 'No member is invitation-pending here, so this changes nothing')),
            }),
          ),
        }),
      ),
    }),
    { id: 'SearchMembersBody' },
  ))();
export type SearchMembersBody = z.output<typeof SearchMembersBody>;
export type ListMembersQuery = z.output<typeof ListMembersQuery>;
