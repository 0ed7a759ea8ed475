// The member pages' requests (GET {app_url}/, /entities/{id}, /notes/{id}, /members/{id}, /teams/{id}, the
// pages' own sign-in and sign-out; lib/http/member-pages/). Every answer is a page, so the
// declarations document their parameters and forms; a page's id that names nothing it may show is
// the one 404 page, malformed or not.
// Module-level schemas are built in `/* @__PURE__ */` arrows so bundles drop unused ones (./common.ts).
import * as z from 'zod/mini';
import { doc } from '#lib/domain/schemas/doc.ts';
import { checkedString, strictObject } from './build.ts';

const text = (max: number) => checkedString(z.minLength(1), z.maxLength(max));
/** A position in one of a page's lists: opaque, from the page's own link. */
const listCursor = (what: string) => z.optional(doc(text(2048), `Where ${what} continue: the page's own link gives it`));

/** A record's page: any id is answered, the page or the 404 page. */
export const PageRecordPath = /* @__PURE__ */ (() =>
  strictObject({ id: doc(text(100), "The id of the record (another workspace's, an unknown or a deleted one: the 404 page)") }))();

export const EntityPageQuery = /* @__PURE__ */ (() =>
  strictObject({
    notes: listCursor('the notes (newest first)'),
    children: z.optional(doc(z.literal('all'), 'Every child in creation order instead of the ranking')),
    after: listCursor('the children in creation order'),
  }))();

export const MemberPageQuery = /* @__PURE__ */ (() =>
  strictObject({
    entities: listCursor('the entities the member owns'),
    notes: listCursor('the notes the member owns'),
  }))();

export const TeamPageQuery = /* @__PURE__ */ (() => strictObject({ members: listCursor("the team's members (newest membership first)") }))();

export const PageSignInQuery = /* @__PURE__ */ (() =>
  strictObject({
    next: z.optional(doc(text(2048), 'The page to open after signing in: a path of these pages, else home')),
    workspace: z.optional(doc(text(100), 'Fills in the workspace ID')),
    signed_out: z.optional(doc(z.literal('1'), 'Says the member has just signed out')),
  }))();

/** POST {app_url}/sign-in (the pages' sign-in form). */
export const PageSignInForm = /* @__PURE__ */ (() =>
  doc(
    z.looseObject({
      csrf_token: text(256),
      workspace: doc(text(100), "The member's workspace ID"),
      email: text(254),
      password: text(1024),
      next: z.optional(doc(checkedString(z.maxLength(2048)), 'The page to open after signing in: a path of these pages, else home')),
    }),
    { id: 'PageSignInForm' },
  ))();

/** POST {app_url}/sign-out. */
export const PageSignOutForm = /* @__PURE__ */ (() => doc(z.looseObject({ csrf_token: text(256) }), { id: 'PageSignOutForm' }))();
