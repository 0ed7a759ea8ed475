// Key design of the single table: every key, prefix and index key is built here and nowhere else.
// Every tenant item lives under its workspace's partition or carries the workspace in its key; the
// only global keys are credential and client-id look-ups (whose items name their workspace) and
// rate-limit budgets (per credential owner).
import { createHash } from 'node:crypto';

const WS = (ws: string) => `WS#${ws}`;
const WORKSPACE_SK = 'WORKSPACE';
const LINK = 'LINK#';
const RATE = 'RATE#';
const FIELD = 'FIELD#';
const APP = 'APP#';
const REL = 'REL#';
const CUSTEMAIL = 'CUSTEMAIL#';
const MEMBER = 'MEMBER#';
const WEBHOOK = 'WEBHOOK#';

/** Prefix of rate-limit partitions: read-only functions may write only these (IAM LeadingKeys). */
export const RATE_LIMIT_KEY_PREFIX = 'RL#';

/** DynamoDB's bound on a sort key, the table's and every index's, in UTF-8 bytes. */
const MAX_SORT_KEY = 1024;
/**
 * A sort key's `head` and the client text after it (a name, an e-mail): the text as it is while the
 * key, with the `tailBytes` that follow the text, fits in MAX_SORT_KEY; else `sha256:` and the text's
 * SHA-256 in hex, so a text of any allowed length has a key. Every key that fits is the one written
 * before (DynamoDB refused the others), and a text that reads like a hash matches one only through
 * a SHA-256 preimage. Items keep the text itself in their attributes: no reader takes it from a key.
 */
export const keyText = (head: string, text: string, tailBytes = 0) =>
  Buffer.byteLength(head) + Buffer.byteLength(text) + tailBytes <= MAX_SORT_KEY
    ? head + text
    : `${head}sha256:${createHash('sha256').update(text).digest('hex')}`;

// Each key builder is its own export (importers use `import * as keys`), so a bundle keeps the
// builders it calls, not all of them.

/** A workspace's own partition: every tenant item below lives in it. */
export const partition = WS;
export const workspace = (ws: string) => ({ pk: WS(ws), sk: WORKSPACE_SK });
/** The sort key every workspace item has (verify finds workspaces by it). */
export const workspaceSortKey = WORKSPACE_SK;
/**
 * A member. GSI1 lists a workspace's members oldest first: gsi1pk = membersOf(ws), gsi1sk =
 * listPosition(createdAt, id) (items made before the index have them from `admin index backfill`).
 */
export const member = (ws: string, memberId: string) => ({ pk: WS(ws), sk: `${MEMBER}${memberId}` });
export const membersPrefix = MEMBER;
export const membersOf = (ws: string) => `${WS(ws)}#MEMBERS`;
/** Uniqueness guard and look-up of a member by e-mail (lower-cased) within a workspace. */
export const memberEmail = (ws: string, email: string) => ({ pk: WS(ws), sk: keyText('EMAIL#', email) });
/** An issued credential (API token or access token), by token id (the JWT's jti). */
export const credential = (tokenId: string) => ({ pk: `TOKEN#${tokenId}`, sk: 'TOKEN' });
/**
 * A hierarchy or customer entity. Item: { kind: 'entity', id, type, parentId?, fields: {...API-shaped
 * values, custom fields by uuid}, createdAt, updatedAt, ...score aggregates (lib/store/entities.ts) }.
 * GSI1 lists a type oldest first: gsi1pk = entitiesOfType(ws, type), gsi1sk = listPosition(createdAt, id).
 * GSI2 lists children in the order they joined their parent: gsi2pk = childrenOf(ws, parentId),
 * gsi2sk = listPosition(joinedAt, id) — created there, or moved there (a child moved away and back
 * is the newest again, so a walk of the list that spans the two moves meets it twice).
 */
export const entity = (ws: string, id: string) => ({ pk: WS(ws), sk: `ENT#${id}` });
export const entitiesOfType = (ws: string, type: string) => `${WS(ws)}#ENTTYPE#${type}`;
export const childrenOf = (ws: string, parentId: string) => `${WS(ws)}#CHILDREN#${parentId}`;
/**
 * The GSI sort key of a listed entity or note: a time, then the id to break ties. GSI1 uses the
 * creation time; GSI2 (children) the time the child joined its parent (created, or moved there).
 */
export const listPosition = (createdAt: string, id: string) => `${createdAt}#${id}`;
/**
 * A note. Item: { kind: 'note', id, type: 'textNote', fields: {...}, customer?: {type, id}, createdAt, updatedAt }.
 * GSI1 lists notes by creation time (read newest first): gsi1pk = notesOf(ws), gsi1sk = listPosition(createdAt, id).
 */
export const note = (ws: string, id: string) => ({ pk: WS(ws), sk: `NOTE#${id}` });
export const notesOf = (ws: string) => `${WS(ws)}#NOTES`;
/**
 * A link from a note to a hierarchy entity. Item: { kind: 'link', noteId, entityId, importance, setAt, ... }.
 * A note's links: Query pk, begins_with(sk, linksOfNotePrefix(noteId)). GSI2 lists an entity's links:
 * gsi2pk = linksTo(ws, entityId), gsi2sk = noteId. GSI3 lists them by the time each was set (linked
 * or re-rated; the member pages read it newest first): gsi3pk = linksByTime(ws, entityId), gsi3sk =
 * linkTimePosition(setAt, noteId).
 */
export const link = (ws: string, noteId: string, entityId: string) => ({ pk: WS(ws), sk: `${LINK}${noteId}#${entityId}` });
export const linksOfNotePrefix = (noteId: string) => `${LINK}${noteId}#`;
/** Sort-key prefixes of each kind the score is made of, for reading a workspace kind by kind (verify). */
export const kindPrefix = { entity: 'ENT#', note: 'NOTE#', link: LINK, rating: RATE } as const;
export const linksTo = (ws: string, entityId: string) => `${WS(ws)}#LINKSTO#${entityId}`;
export const linksByTime = (ws: string, entityId: string) => `${WS(ws)}#LINKED#${entityId}`;
/** Epoch milliseconds zero-padded to a fixed width, so positions order as strings, then the note id. */
export const linkTimePosition = (setAt: number, noteId: string) => `${String(Math.max(0, Math.trunc(setAt))).padStart(15, '0')}#${noteId}`;
/**
 * One customer's ratings of one hierarchy entity (lib/store/aggregates.ts): { kind: 'rating', entityId,
 * customerId, entries: { [noteId]: { w, at } }, weight (the one that counts), ver }. An entity's
 * ratings: Query pk, begins_with(sk, ratingsOfEntityPrefix(entityId)).
 */
export const rating = (ws: string, entityId: string, customerId: string) => ({ pk: WS(ws), sk: `${RATE}${entityId}#${customerId}` });
export const ratingsOfEntityPrefix = (entityId: string) => `${RATE}${entityId}#`;
/** The entity a rating's sort key names (ids hold no '#'). */
export const ratingEntityId = (sk: string) => sk.slice(RATE.length, sk.indexOf('#', RATE.length));
/**
 * GSI3, the owner index: an entity or note with an owner is listed under its owner, oldest first:
 * gsi3pk = ownedBy(ws, memberId), gsi3sk = ownedPosition(kind, createdAt, id) — entities and notes
 * apart by the prefix, each in listPosition order after it. Sparse: no owner, no entry. Link items
 * use GSI3 under partition values of their own (linksByTime).
 */
export const ownedBy = (ws: string, memberId: string) => `${WS(ws)}#OWNER#${memberId}`;
export const ownedPrefix = (kind: 'entity' | 'note') => (kind === 'entity' ? 'ENT#' : 'NOTE#');
export const ownedPosition = (kind: 'entity' | 'note', createdAt: string, id: string) => `${kind === 'entity' ? 'ENT#' : 'NOTE#'}${createdAt}#${id}`;
/** The GSI3 attributes of a record with this owner (member id), or undefined without one. */
export const ownerIndex = (ws: string, kind: 'entity' | 'note', r: { id: string; createdAt: string; fields: Record<string, unknown> }) => {
  const owner = r.fields.owner as { id?: unknown } | null | undefined;
  return typeof owner?.id === 'string'
    ? { gsi3pk: `${WS(ws)}#OWNER#${owner.id}`, gsi3sk: `${kind === 'entity' ? 'ENT#' : 'NOTE#'}${r.createdAt}#${r.id}` }
    : undefined;
};
/**
 * Inclusive bounds of the list positions (listPosition) whose time lies in [from, to], both ISO
 * 8601 UTC strings as Date#toISOString writes them (fixed width, so they order as strings). Ids
 * are lower-case hex, all below '~'.
 */
export const timeRange = (from: string | undefined, to: string | undefined) => ({
  ...(from !== undefined ? { from } : {}),
  ...(to !== undefined ? { to: `${to}#~` } : {}),
});
/**
 * One side of a relation between two hierarchy entities (link, isBlockedBy, isBlocking): every
 * relation is two items, one per side, written and deleted together. Item: { kind: 'relation',
 * entityId, type, targetId, targetType, createdAt }. An entity's relations: Query pk,
 * begins_with(sk, relationsOfPrefix(entityId[, type])).
 */
export const relation = (ws: string, entityId: string, type: string, targetId: string) => ({ pk: WS(ws), sk: `${REL}${entityId}#${type}#${targetId}` });
/** Every relation item of a workspace: Query pk, begins_with(sk, relationsPrefix). */
export const relationsPrefix = REL;
export const relationsOfPrefix = (entityId: string, type?: string) => `${REL}${entityId}#${type !== undefined ? `${type}#` : ''}`;
/**
 * Look-up of a user (customer entity) by e-mail, lower-cased: { kind: 'customerEmail', email,
 * userId }, written and deleted with the user's e-mail field. Several users may share an
 * address: Query pk, begins_with(sk, customerEmailPrefix(email)). Every key of an e-mail has the
 * same 37 bytes after it, '#' and a user id (a uuid), so its prefix and its keys agree.
 */
export const customerEmailPrefix = (email: string) => `${keyText(CUSTEMAIL, email, 37)}#`;
export const customerEmail = (ws: string, email: string, userId: string) => ({ pk: WS(ws), sk: `${customerEmailPrefix(email)}${userId}` });
/**
 * GSI2 of a note with a customer, its customer's notes oldest first: gsi2pk = notesOfCustomer(ws,
 * customerId), gsi2sk = listPosition(createdAt, noteId) (items written before it had the bare
 * note id until `admin index backfill`).
 */
export const notesOfCustomer = (ws: string, customerId: string) => `${WS(ws)}#CUSTNOTES#${customerId}`;
/**
 * A custom field definition: { kind: 'customField', id, entityType, name, fieldKind, createdAt,
 * ver, and for a select field its values: values: [{ id, name, color, seq }] (or, written before
 * values had ids, options: string[]), replaced?: { [deleted value's id]: its replacement's id } }.
 */
export const customField = (ws: string, fieldId: string) => ({ pk: WS(ws), sk: `${FIELD}${fieldId}` });
export const customFieldsPrefix = FIELD;
/** Uniqueness guard of a custom field's name on its type, lower-cased: { kind: 'customFieldName', fieldId }. */
export const customFieldName = (ws: string, entityType: string, name: string) => ({ pk: WS(ws), sk: keyText(`FIELDNAME#${entityType}#`, name) });
/**
 * A value of a field whose values are records of their own (an entity's tags, `fieldId` 'tags'):
 * { kind: 'fieldValue', fieldId, id, name, color, createdAt }. GSI1 lists a field's values oldest
 * first: gsi1pk = fieldValuesOf(ws, fieldId), gsi1sk = listPosition(createdAt, id). A value deleted
 * with a replacement stays as { kind: 'fieldValueReplaced', fieldId, id, replacedBy }, off the list.
 */
export const fieldValue = (ws: string, fieldId: string, valueId: string) => ({ pk: WS(ws), sk: `FVAL#${fieldId}#${valueId}` });
/** The sort-key prefix of a field's value items, replaced ones included. */
export const fieldValuePrefix = (fieldId: string) => `FVAL#${fieldId}#`;
export const fieldValuesOf = (ws: string, fieldId: string) => `${WS(ws)}#FVALS#${fieldId}`;
/** Uniqueness guard and look-up of a field's value by name, lower-cased: { kind: 'fieldValueName', fieldId, valueId }. */
export const fieldValueName = (ws: string, fieldId: string, name: string) => ({ pk: WS(ws), sk: keyText(`FVNAME#${fieldId}#`, name) });
/**
 * A team (lib/store/teams.ts): { kind: 'team', id, name, handle, description?, createdAt,
 * updatedAt, deleting? }. GSI1 lists a workspace's teams by creation time (read newest first):
 * gsi1pk = teamsOf(ws), gsi1sk = listPosition(createdAt, id).
 */
export const team = (ws: string, teamId: string) => ({ pk: WS(ws), sk: `TEAM#${teamId}` });
export const teamsOf = (ws: string) => `${WS(ws)}#TEAMS`;
/** Uniqueness guards and look-ups of a team by name (lower-cased) and by handle: { kind: 'teamName' | 'teamHandle', teamId }. */
export const teamName = (ws: string, name: string) => ({ pk: WS(ws), sk: keyText('TEAMNAME#', name) });
export const teamHandle = (ws: string, handle: string) => ({ pk: WS(ws), sk: keyText('TEAMHANDLE#', handle) });
/**
 * A member's membership of a team: { kind: 'teamMembership', teamId, memberId, addedAt }. A team's
 * memberships: Query pk, begins_with(sk, teamMembershipsPrefix(teamId)); GSI2 lists them by the time
 * they were made (read newest first): gsi2pk = teamMembersOf(ws, teamId), gsi2sk = listPosition(addedAt,
 * memberId). The member item carries the team ids too (`teamIds`), so a member's teams need no Query.
 */
export const teamMembership = (ws: string, teamId: string, memberId: string) => ({ pk: WS(ws), sk: `TEAMMEMBER#${teamId}#${memberId}` });
export const teamMembershipsPrefix = (teamId: string) => `TEAMMEMBER#${teamId}#`;
export const teamMembersOf = (ws: string, teamId: string) => `${WS(ws)}#TEAMMEMBERS#${teamId}`;
/**
 * A comment on a note (lib/store/comments.ts): { kind: 'comment', id, noteId, content, authorId,
 * createdAt }. A note's comments oldest first: Query pk, begins_with(sk, commentsOfNotePrefix(noteId));
 * the position is listPosition(createdAt, id).
 */
export const comment = (ws: string, noteId: string, createdAt: string, id: string) => ({ pk: WS(ws), sk: `COMMENT#${noteId}#${createdAt}#${id}` });
export const commentsOfNotePrefix = (noteId: string) => `COMMENT#${noteId}#`;
/** A server-to-server OAuth application (see lib/store/applications.ts). */
export const application = (ws: string, clientId: string) => ({ pk: WS(ws), sk: `${APP}${clientId}` });
export const applicationsPrefix = APP;
/** Global look-up from a client id (an assertion's `iss`) to its workspace. Item: { kind: 'clientId', clientId, workspaceId }. */
export const clientIdIndex = (clientId: string) => ({ pk: `CLIENT#${clientId}`, sk: 'CLIENT' });
/** A dynamically registered client (RFC 7591): global, it belongs to no workspace. */
export const dynamicClient = (clientId: string) => ({ pk: `DYNCLIENT#${clientId}`, sk: 'DYNCLIENT' });
/** Registrations from one address (hashed) in one hour: the registration endpoint's rate limit. */
export const registrationWindow = (addressHash: string, hour: number) => ({ pk: `REGISTER#${addressHash}#${hour}`, sk: 'REGISTER' });
/** A used assertion `jti` of one application (SHA-256 of the jti, base64url); expires by TTL (lib/store/assertion-ids.ts). */
export const assertionId = (ws: string, clientId: string, jtiHash: string) => ({ pk: WS(ws), sk: `JTI#${clientId}#${jtiHash}` });
/** The request budget of one credential owner, e.g. `member:<ws>:<id>` (lib/store/rate-limits.ts). */
export const rateBucket = (owner: string) => ({ pk: `${RATE_LIMIT_KEY_PREFIX}${owner}`, sk: 'RL' });

// --- Authorization code flow: member sign-in, codes, grants, refresh tokens, CORS origins ---
// Codes, refresh tokens and sessions are found by the SHA-256 of what the browser or client
// holds (global keys, items naming their workspace); the table never holds the value itself.
/** A member's password (lib/store/sign-in.ts). Item: { kind: 'memberPassword', memberId, hash, setAt }. */
export const memberPassword = (ws: string, memberId: string) => ({ pk: WS(ws), sk: `PASSWORD#${memberId}` });
/** A browser sign-in session by the hash of its id. Item: { kind: 'signInSession', workspaceId, memberId, createdAt, expiresAt, ttl }. */
export const signInSession = (idHash: string) => ({ pk: `SESSION#${idHash}`, sk: 'SESSION' });
/**
 * A session of the member pages (lib/store/page-sessions.ts) by the hash of its id: apart from the
 * sign-in sessions above, so that no look-up of one can find the other. Item: { kind: 'pageSession',
 * workspaceId, memberId, createdAt, expiresAt, ttl }.
 */
export const pageSession = (idHash: string) => ({ pk: `PAGESESSION#${idHash}`, sk: 'PAGESESSION' });
/** Failed sign-ins for one e-mail (its hash) in one window. Item: { kind: 'signInFailures', n, ttl }. */
export const signInFailuresOfEmail = (ws: string, emailHash: string, window: number) => ({ pk: WS(ws), sk: `SIGNINFAIL#${emailHash}#${window}` });
/** Failed sign-ins from one source address (its hash) in one window, across workspaces. */
export const signInFailuresOfAddress = (addressHash: string, window: number) => ({ pk: `SIGNINFAIL#${addressHash}#${window}`, sk: 'SIGNINFAIL' });
/** An authorization code by its hash (lib/store/authorization-grants.ts). */
export const authorizationCode = (codeHash: string) => ({ pk: `AUTHCODE#${codeHash}`, sk: 'AUTHCODE' });
/** A grant (token family) of the authorization code flow: revoking it ends every token of the family. */
export const oauthGrant = (ws: string, grantId: string) => ({ pk: WS(ws), sk: `GRANT#${grantId}` });
/** A refresh token by its hash. */
export const refreshToken = (tokenHash: string) => ({ pk: `REFRESH#${tokenHash}`, sk: 'REFRESH' });
/** The applications that registered a redirect URI on an origin (lib/store/cors-origins.ts). */
export const corsOrigin = (origin: string) => ({ pk: `ORIGIN#${origin}`, sk: 'ORIGIN' });
// --- Webhooks (lib/store/webhooks.ts) ---
/**
 * A webhook subscription: { kind: 'webhook', id, name, events, url, version, sealed secrets,
 * status, failureStreak, createdAt, createdByClient? }. GSI1 lists a workspace's subscriptions
 * oldest first: gsi1pk = webhooksOf(ws), gsi1sk = listPosition(createdAt, id); the stream consumer
 * reads them all with Query pk, begins_with(sk, webhooksPrefix).
 */
export const webhook = (ws: string, id: string) => ({ pk: WS(ws), sk: `${WEBHOOK}${id}` });
export const webhooksPrefix = WEBHOOK;
/**
 * The first use of an Idempotency-Key (lib/store/idempotency.ts), by a hash of the member, the
 * operation and the key. Item: { kind: 'idempotency', fingerprint, firstAt (epoch ms), result, ttl }.
 */
export const idempotency = (ws: string, hash: string) => ({ pk: WS(ws), sk: `IDEM#${hash}` });
export const webhooksOf = (ws: string) => `${WS(ws)}#WEBHOOKS`;
/** What became of one event for one subscription (claimed, delivered, dead); expires by TTL. */
export const webhookDelivery = (ws: string, subscriptionId: string, eventId: string) => ({ pk: WS(ws), sk: `DELIVERY#${subscriptionId}#${eventId}` });

// --- Writes that finish (lib/store/work.ts, lib/store/tombstones.ts) ---
/**
 * A pending-work item: what is left of a write that takes more than one transaction (a subtree
 * delete's clean-up, a stepwise note change). Item: { kind: 'work', work, subject, token, createdAt,
 * due, attempts, ... }. GSI1 lists every workspace's items by the time they are due:
 * gsi1pk = pendingWorkIndex, gsi1sk = pendingWorkPosition(due, ws, work, subject).
 */
export const pendingWork = (ws: string, work: string, subject: string) => ({ pk: WS(ws), sk: `WORK#${work}#${subject}` });
export const pendingWorkPrefix = 'WORK#';
export const pendingWorkIndex = 'WORK';
export const pendingWorkPosition = (due: number, ws: string, work: string, subject: string) => `${new Date(due).toISOString()}#${ws}#${work}#${subject}`;
/** The GSI1 position of work due at `now` or earlier: every position up to it sorts below this. */
export const pendingWorkDueBy = (now: number) => `${new Date(now).toISOString()}#~`;
/**
 * The ids a subtree delete marked, in chunks written with the marks (one per transaction):
 * { kind: 'tombstones', rootId, level, ids }. Readers of a workspace's links and relations read them
 * all (Query pk, begins_with(sk, tombstonesPrefix)); a subtree's: begins_with(sk, tombstonesOf(root)).
 */
export const tombstones = (ws: string, rootId: string, level: number, chunk: string) => ({
  pk: WS(ws),
  sk: `TOMB#${rootId}#${String(level).padStart(2, '0')}#${chunk}`,
});
export const tombstonesPrefix = 'TOMB#';
export const tombstonesOf = (rootId: string) => `TOMB#${rootId}#`;

/**
 * A run of a bulk move (restore, imports: lib/store/move/runs.ts) by the hash of what names it (the
 * command and its inputs), so the same command finds the run it continues. Global: a restore's or an
 * import's workspace has no workspace item until the run is complete.
 */
export const moveRun = (runKeyHash: string) => ({ pk: `MOVE#${runKeyHash}`, sk: 'MOVE' });

export type ItemKey = ReturnType<typeof workspace>;

/** A tenant item's key in the API's words, for messages that must name a resource (contention). */
export function describeKey(key: { sk?: unknown } | undefined): string {
  const sk = typeof key?.sk === 'string' ? key.sk : '';
  const [prefix, a, b] = sk.split('#');
  switch (prefix) {
    case 'ENT':
      return `entity ${a}`;
    case 'NOTE':
      return `note ${a}`;
    case 'LINK':
      return `the link from note ${a} to entity ${b}`;
    case 'RATE':
      return `the rating of entity ${a} by customer ${b}`;
    case 'IDEM':
      return 'the Idempotency-Key of this request';
    case 'TEAM':
      return `team ${a}`;
    case 'TEAMMEMBER':
      return `the membership of member ${b} in team ${a}`;
    case 'FVAL':
      return `value ${b} of field ${a}`;
    default:
      return 'a record of this workspace';
  }
}

/** The workspace of a tenant item's partition key (stream records carry keys, not workspaces). */
export function workspaceOfPartition(pk: string): string | undefined {
  return /^WS#([^#]+)$/.exec(pk)?.[1];
}
