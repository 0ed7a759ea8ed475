// The reference model against the score rule's own wording (README.md, "Customer score"), so the property test's
// oracle is itself checked on the cases the rule spells out.
import { describe, expect, it } from 'vitest';
import { ScoreModel } from './model.ts';

function tree() {
  const m = new ScoreModel(8);
  m.createEntity('P', 'product', undefined);
  m.createEntity('C', 'component', 'P');
  m.createEntity('F', 'feature', 'C');
  m.createEntity('S', 'subfeature', 'F');
  m.createEntity('acme', 'company', undefined);
  m.createEntity('ann', 'user', 'acme');
  m.createEntity('bob', 'user', undefined);
  return m;
}

describe('reference model of the score', () => {
  it('weights: critical 3, important 2, nice to have 1, unknown 1, not important 0; default importance unknown', () => {
    const m = tree();
    const cases = [
      ['critical', 3],
      ['important', 2],
      ['nice to have', 1],
      ['unknown', 1],
      ['not important', 0],
      [undefined, 1],
    ] as const;
    cases.forEach(([importance, weight], i) => {
      const c = `cust${i}`;
      m.createEntity(c, 'user', undefined);
      m.createNote(`n${i}`, c, [{ entityId: 'S', ...(importance ? { importance } : {}) }]);
      expect(m.own('S')).toBe(cases.slice(0, i + 1).reduce((s, [, w]) => s + w, 0));
      expect(weight).toBe(m.own('S') - (i ? cases.slice(0, i).reduce((s, [, w]) => s + w, 0) : 0));
    });
  });

  it('per (entity, customer) only the most recently set rating counts; deleting it lets the next most recent count', () => {
    const m = tree();
    m.createNote('n1', 'ann', [{ entityId: 'F', importance: 'critical' }]);
    m.createNote('n2', 'ann', [{ entityId: 'F', importance: 'not important' }]);
    m.createNote('n3', 'ann', [{ entityId: 'F', importance: 'important' }]);
    expect(m.own('F')).toBe(2);
    m.putLink('n1', 'F', 'critical'); // re-rating sets it again: now the latest
    expect(m.own('F')).toBe(3);
    m.deleteLink('n1', 'F');
    expect(m.own('F')).toBe(2);
    m.deleteNote('n3');
    expect(m.own('F')).toBe(0);
  });

  it('anonymous links count 1 each whatever their importance; a customer change moves the rating keeping its set time', () => {
    const m = tree();
    m.createNote('a1', undefined, [{ entityId: 'F', importance: 'not important' }]);
    m.createNote('a2', undefined, [{ entityId: 'F', importance: 'critical' }]);
    expect(m.own('F')).toBe(2);
    m.createNote('b1', 'bob', [{ entityId: 'F', importance: 'nice to have' }]);
    expect(m.own('F')).toBe(3);
    // a2's rating (critical) was set before b1's: it moves to bob but does not become his latest.
    m.setCustomer('a2', 'bob');
    expect(m.own('F')).toBe(1 + 1);
    m.clearCustomer('a2', 'bob');
    expect(m.own('F')).toBe(3);
  });

  it('score(e) sums own(d) over the subtree and follows moves and cascading deletes', () => {
    const m = tree();
    m.createEntity('P2', 'product', undefined);
    m.createNote('n1', 'ann', [
      { entityId: 'S', importance: 'critical' },
      { entityId: 'C', importance: 'important' },
    ]);
    expect([m.score('P'), m.score('C'), m.score('F'), m.score('S'), m.score('P2')]).toEqual([5, 5, 3, 3, 0]);
    m.setParent('F', 'P2');
    expect([m.score('P'), m.score('C'), m.score('P2')]).toEqual([2, 2, 3]);
    m.deleteEntity('P2');
    expect([...m.scores()]).toEqual([
      ['P', 2],
      ['C', 2],
    ]);
    expect(m.links.size).toBe(1);
  });

  it('deleting a customer (a company with its users) leaves their notes anonymous: each link counts 1', () => {
    const m = tree();
    m.createNote('n1', 'ann', [{ entityId: 'F', importance: 'critical' }]);
    m.createNote('n2', 'bob', [{ entityId: 'F', importance: 'not important' }]);
    expect(m.own('F')).toBe(3);
    expect(m.deleteEntity('acme')).toEqual(['acme', 'ann']);
    expect(m.notes.get('n1')).toEqual({ customerId: undefined });
    expect(m.own('F')).toBe(1);
  });

  it('refuses what the API refuses: wrong parent type, cycles, depth past the cap, links to customers, duplicate POST links', () => {
    const m = tree();
    expect(m.checkCreateEntity('subfeature', 'C')).toMatchObject({ ok: false, refusal: 'invalid' });
    expect(m.checkCreateEntity('feature', undefined)).toMatchObject({ ok: false, refusal: 'invalid' });
    expect(m.checkCreateEntity('feature', 'nope')).toMatchObject({ ok: false, refusal: 'unknownReference' });
    expect(m.checkSetParent('C', 'C')).toMatchObject({ ok: false, refusal: 'invalid' });
    m.createEntity('C2', 'component', 'C');
    expect(m.checkSetParent('C', 'C2')).toMatchObject({ ok: false, refusal: 'invalid', why: expect.stringContaining('cycle') });
    let parent = 'C2';
    for (let i = 0; i < 5; i++) {
      const id = `K${i}`;
      if (!m.checkCreateEntity('component', parent).ok) break;
      m.createEntity(id, 'component', parent);
      parent = id;
    }
    expect(m.depth(parent)).toBe(8);
    expect(m.checkCreateEntity('feature', parent)).toMatchObject({ ok: false, why: expect.stringContaining('depth') });
    expect(m.checkSetParent('F', m.entities.get(parent)!.parentId!)).toMatchObject({ ok: false, why: expect.stringContaining('depth') });
    m.createNote('n', undefined, []);
    expect(m.checkCreateLink('n', 'ann')).toMatchObject({ ok: false, refusal: 'invalid' });
    m.createLink('n', 'F');
    expect(m.checkCreateLink('n', 'F')).toMatchObject({ ok: false, refusal: 'conflict' });
    expect(m.checkPutLink('n', 'F')).toEqual({ ok: true });
    expect(m.checkClearCustomer('n', 'ann')).toMatchObject({ ok: false, refusal: 'notFound' });
  });
});
