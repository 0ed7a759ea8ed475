// Drives the score-relevant operations through the HTTP API (real local gateway, DynamoDB Local)
// and through the reference model side by side: the model predicts whether the API must accept or
// refuse each operation, and after every step every entity's score must equal the model's.
import { expect } from 'vitest';
import type { ErrorCode } from '#lib/http/errors.ts';
import { isHierarchy, ScoreModel, type EntityType, type Importance, type NewLink, type Outcome, type Refusal } from './model.ts';
import { call, expectError, type CallResult, type TestApp } from '../support/app.ts';

/**
 * The envelope each refusal must produce. An id in a request body that names nothing is "an
 * unknown id" to the API: 404 resource.notFound, like an unknown id in the path.
 */
const REFUSAL_CODE: Record<Refusal, ErrorCode> = {
  invalid: 'request.invalid',
  notFound: 'resource.notFound',
  unknownReference: 'resource.notFound',
  conflict: 'conflict.uniqueViolation',
};

/** Thin wrappers over the API's routes. */
export class ScoreApi {
  constructor(
    readonly app: TestApp,
    readonly token: string,
  ) {}

  /** Requests sent by every ScoreApi in this process (the property test reports it with FC_STATS=1). */
  static requests = 0;

  private req(method: string, path: string, body?: unknown) {
    ScoreApi.requests++;
    return call(this.app, method, path, { token: this.token, ...(body === undefined ? {} : { body }) });
  }

  createEntity(type: EntityType, parentId: string | undefined, name = `${type} ${Math.random().toString(36).slice(2, 8)}`) {
    return this.req('POST', '/v2/entities', {
      data: { type, fields: { name }, ...(parentId ? { relationships: [{ type: 'parent', target: { id: parentId } }] } : {}) },
    });
  }
  setParent(id: string, parentId: string) {
    return this.req('PUT', `/v2/entities/${id}/relationships/parent`, { data: { target: { id: parentId } } });
  }
  deleteEntity(id: string) {
    return this.req('DELETE', `/v2/entities/${id}`);
  }
  getEntity(id: string) {
    return this.req('GET', `/v2/entities/${id}`);
  }
  /** A GET of a path under {app_url} (list pages). */
  get(path: string) {
    return this.req('GET', path);
  }
  score(id: string) {
    return this.req('GET', `/v2/entities/${id}/score`);
  }
  createNote(customer: { type: EntityType; id: string } | undefined, links: readonly NewLink[]) {
    const relationships: unknown[] = [];
    if (customer) relationships.push({ type: 'customer', target: customer });
    for (const l of links) relationships.push({ type: 'link', target: { id: l.entityId }, ...(l.importance ? { importance: l.importance } : {}) });
    return this.req('POST', '/v2/notes', {
      data: { type: 'textNote', fields: { name: 'Customer feedback' }, ...(relationships.length ? { relationships } : {}) },
    });
  }
  setCustomer(noteId: string, customer: { type: EntityType; id: string }) {
    return this.req('PUT', `/v2/notes/${noteId}/relationships/customer`, { data: { target: customer } });
  }
  clearCustomer(noteId: string, customerId: string) {
    return this.req('DELETE', `/v2/notes/${noteId}/relationships/customer/${customerId}`);
  }
  createLink(noteId: string, entityId: string, importance?: Importance) {
    return this.req('POST', `/v2/notes/${noteId}/relationships`, {
      data: { type: 'link', target: { id: entityId }, ...(importance ? { importance } : {}) },
    });
  }
  putLink(noteId: string, entityId: string, importance: Importance) {
    return this.req('PUT', `/v2/notes/${noteId}/relationships/link/${entityId}`, { data: { importance } });
  }
  deleteLink(noteId: string, entityId: string) {
    return this.req('DELETE', `/v2/notes/${noteId}/relationships/link/${entityId}`);
  }
  deleteNote(noteId: string) {
    return this.req('DELETE', `/v2/notes/${noteId}`);
  }
}

/** An operation with concrete ids, as the driver executes it. */
export type Step =
  | { kind: 'createEntity'; type: EntityType; parentId: string | undefined }
  | { kind: 'setParent'; id: string; parentId: string }
  | { kind: 'deleteEntity'; id: string }
  | { kind: 'createNote'; customerId: string | undefined; links: NewLink[] }
  | { kind: 'setCustomer'; noteId: string; customerId: string }
  | { kind: 'clearCustomer'; noteId: string; customerId: string }
  | { kind: 'createLink'; noteId: string; entityId: string; importance: Importance | undefined }
  | { kind: 'putLink'; noteId: string; entityId: string; importance: Importance }
  | { kind: 'deleteLink'; noteId: string; entityId: string }
  | { kind: 'deleteNote'; noteId: string };

const describeStep = (s: Step) => JSON.stringify(s);

const SUCCESS: Record<Step['kind'], number> = {
  createEntity: 201,
  setParent: 200,
  deleteEntity: 204,
  createNote: 201,
  setCustomer: 200,
  clearCustomer: 204,
  createLink: 201,
  putLink: 200,
  deleteLink: 204,
  deleteNote: 204,
};

export class ScoreDriver {
  readonly model: ScoreModel;
  /** Entities deleted during the run: their score must be 404. */
  readonly gone = new Set<string>();
  readonly deletedNotes = new Set<string>();
  readonly log: string[] = [];

  constructor(
    readonly api: ScoreApi,
    maxDepth: number,
  ) {
    this.model = new ScoreModel(maxDepth);
  }

  /** The target object the API takes for a customer: its real type, so only the id can be wrong. */
  customerRef(id: string): { type: EntityType; id: string } {
    return { type: this.model.entities.get(id)?.type ?? 'user', id };
  }

  expected(step: Step): Outcome {
    const m = this.model;
    switch (step.kind) {
      case 'createEntity':
        return m.checkCreateEntity(step.type, step.parentId);
      case 'setParent':
        return m.checkSetParent(step.id, step.parentId);
      case 'deleteEntity':
        return m.checkDeleteEntity(step.id);
      case 'createNote':
        return m.checkCreateNote(step.customerId, step.links);
      case 'setCustomer':
        return m.checkSetCustomer(step.noteId, step.customerId);
      case 'clearCustomer':
        return m.checkClearCustomer(step.noteId, step.customerId);
      case 'createLink':
        return m.checkCreateLink(step.noteId, step.entityId);
      case 'putLink':
        return m.checkPutLink(step.noteId, step.entityId);
      case 'deleteLink':
        return m.checkDeleteLink(step.noteId, step.entityId);
      case 'deleteNote':
        return m.checkDeleteNote(step.noteId);
    }
  }

  send(step: Step): Promise<CallResult> {
    const a = this.api;
    switch (step.kind) {
      case 'createEntity':
        return a.createEntity(step.type, step.parentId);
      case 'setParent':
        return a.setParent(step.id, step.parentId);
      case 'deleteEntity':
        return a.deleteEntity(step.id);
      case 'createNote':
        return a.createNote(step.customerId === undefined ? undefined : this.customerRef(step.customerId), step.links);
      case 'setCustomer':
        return a.setCustomer(step.noteId, this.customerRef(step.customerId));
      case 'clearCustomer':
        return a.clearCustomer(step.noteId, step.customerId);
      case 'createLink':
        return a.createLink(step.noteId, step.entityId, step.importance);
      case 'putLink':
        return a.putLink(step.noteId, step.entityId, step.importance);
      case 'deleteLink':
        return a.deleteLink(step.noteId, step.entityId);
      case 'deleteNote':
        return a.deleteNote(step.noteId);
    }
  }

  /** Applies an accepted step to the model; `id` is the server's id for creations. */
  commit(step: Step, id?: string): void {
    const m = this.model;
    switch (step.kind) {
      case 'createEntity':
        return m.createEntity(id!, step.type, step.parentId);
      case 'setParent':
        return m.setParent(step.id, step.parentId);
      case 'deleteEntity': {
        for (const g of m.deleteEntity(step.id)) this.gone.add(g);
        return;
      }
      case 'createNote':
        return m.createNote(id!, step.customerId, step.links);
      case 'setCustomer':
        return m.setCustomer(step.noteId, step.customerId);
      case 'clearCustomer':
        return m.clearCustomer(step.noteId, step.customerId);
      case 'createLink':
        return m.createLink(step.noteId, step.entityId, step.importance);
      case 'putLink':
        return m.putLink(step.noteId, step.entityId, step.importance);
      case 'deleteLink':
        return m.deleteLink(step.noteId, step.entityId);
      case 'deleteNote': {
        this.deletedNotes.add(step.noteId);
        return m.deleteNote(step.noteId);
      }
    }
  }

  /** Runs one step against the API, asserts the predicted outcome, and follows it in the model. */
  async run(step: Step): Promise<CallResult> {
    const expected = this.expected(step);
    this.log.push(`${describeStep(step)} → expect ${expected.ok ? SUCCESS[step.kind] : `${REFUSAL_CODE[expected.refusal]} (${expected.why})`}`);
    const res = await this.send(step);
    const context = `${this.log.at(-1)}; got ${res.status} ${res.text}`;
    if (expected.ok) {
      expect(res.status, context).toBe(SUCCESS[step.kind]);
      const id: string | undefined = res.json?.data?.id;
      if (step.kind === 'createEntity' || step.kind === 'createNote') expect(id, context).toMatch(/^[0-9a-f-]{36}$/);
      this.commit(step, id);
    } else {
      const allowed = [REFUSAL_CODE[expected.refusal], ...(expected.alt ? [REFUSAL_CODE[expected.alt]] : [])];
      const code = res.json?.errors?.[0]?.code;
      expect(allowed, context).toContain(code);
      const source = res.json.errors[0].source;
      // A rule violation names the offending member of the body (400 with source.pointer), or the
      // path's parameter where the path names the target (PUT …/relationships/link/{entityId}).
      if (code === 'request.invalid') {
        if (step.kind === 'putLink' && source?.parameter !== undefined) expect(source, context).toEqual({ parameter: 'entityId' });
        else expect(source?.pointer, context).toMatch(/^\/data(\/|$)/);
      }
      expectError(res, code, source ? { source } : {});
    }
    return res;
  }

  /** Creates through the API and returns the new id (the step must be valid). */
  async create(step: Extract<Step, { kind: 'createEntity' | 'createNote' }>): Promise<string> {
    const res = await this.run(step);
    return res.json.data.id as string;
  }

  /**
   * Every live hierarchy entity's score equals the model's (recomputed from scratch), customers
   * and deleted entities answer 404.
   */
  async assertScores(): Promise<void> {
    const expected = this.model.scores();
    const live = [...expected.keys()];
    const notScored = [...this.model.customerIds(), ...this.gone];
    const [got, missing] = await Promise.all([Promise.all(live.map((id) => this.api.score(id))), Promise.all(notScored.map((id) => this.api.score(id)))]);
    const actual = new Map(live.map((id, i) => [id, got[i]!.status === 200 ? got[i]!.json.data.fields.score : `HTTP ${got[i]!.status} ${got[i]!.text}`]));
    expect(Object.fromEntries(actual), `scores after:\n${this.log.join('\n')}`).toEqual(Object.fromEntries(expected));
    for (const [i, id] of live.entries()) {
      expect(got[i]!.json).toEqual({
        data: { id, type: 'customerScore', fields: { score: expected.get(id) }, links: { self: `${this.api.app.baseUrl}/entities/${id}/score` } },
      });
    }
    for (const res of missing) expectError(res, 'resource.notFound');
  }

  /** Every live entity's parent as the API reports it equals the model's. */
  async assertParents(): Promise<void> {
    const ids = [...this.model.entities.keys()];
    const got = await Promise.all(ids.map((id) => this.api.getEntity(id)));
    const actual = Object.fromEntries(
      ids.map((id, i) => {
        const rels: Array<{ type: string; target: { id: string } }> = got[i]!.json?.data?.relationships?.data ?? [];
        return [id, rels.find((r) => r.type === 'parent')?.target.id ?? null];
      }),
    );
    const expected = Object.fromEntries(ids.map((id) => [id, this.model.entities.get(id)!.parentId ?? null]));
    expect(actual, `parents after:\n${this.log.join('\n')}`).toEqual(expected);
  }

  /**
   * The workspace holds exactly the model's entities and notes (the list endpoints, every page):
   * a refused creation left nothing behind, a cascade left nothing over.
   */
  async assertInventory(): Promise<void> {
    const all = async (path: string) => {
      const ids: string[] = [];
      for (let next: string | undefined = path; next;) {
        const res = await this.api.get(next);
        expect(res.status, res.text).toBe(200);
        ids.push(...(res.json.data as Array<{ id: string }>).map((x) => x.id));
        next = res.json.links?.next?.replace(this.api.app.url, '');
      }
      return ids.sort();
    };
    const types = ['product', 'component', 'feature', 'subfeature', 'user', 'company'].map((t) => `type[]=${t}`).join('&');
    expect(await all(`/v2/entities?${types}&limit=100`), `entities after:\n${this.log.join('\n')}`).toEqual([...this.model.entities.keys()].sort());
    expect(await all('/v2/notes?limit=100'), `notes after:\n${this.log.join('\n')}`).toEqual([...this.model.notes.keys()].sort());
  }

  hierarchy(): string[] {
    return this.model.hierarchyIds();
  }
  isHierarchy(id: string): boolean {
    const e = this.model.entities.get(id);
    return !!e && isHierarchy(e.type);
  }
}
