// The score rule and hierarchy rules as pure functions (lib/domain), checked against hand-computed values.
import { describe, expect, it } from 'vitest';
import { depthViolation, MAX_DEPTH, parentRuleViolation } from '#lib/domain/hierarchy.ts';
import { countedWeight, countingNote, ownScores, subtreeScores, WEIGHTS } from '#lib/domain/score.ts';

describe('score rule (pure)', () => {
  it("the spec's weights table: critical 3, important 2, nice to have 1, unknown 1, not important 0", () => {
    expect(WEIGHTS).toEqual({ critical: 3, important: 2, 'nice to have': 1, unknown: 1, 'not important': 0 });
  });

  it('the most recently set entry counts; equal times go to the greater note id', () => {
    expect(countingNote({ a: { w: 3, at: 5 }, b: { w: 0, at: 9 }, c: { w: 2, at: 7 } })).toBe('b');
    expect(countedWeight({ a: { w: 3, at: 5 }, b: { w: 0, at: 9 } })).toBe(0);
    expect(countingNote({ a: { w: 3, at: 5 }, b: { w: 1, at: 5 } })).toBe('b');
    expect(countedWeight({})).toBe(0);
  });

  it('own(e) = Σ per customer of the latest weight + 1 per anonymous link; score = Σ own over the subtree', () => {
    const own = ownScores([
      { noteId: 'n1', entityId: 'f', customerId: 'c1', importance: 'critical', setAt: 1 },
      { noteId: 'n2', entityId: 'f', customerId: 'c1', importance: 'nice to have', setAt: 2 },
      { noteId: 'n3', entityId: 'f', customerId: 'c2', importance: 'important', setAt: 1 },
      { noteId: 'n4', entityId: 'f', importance: 'not important', setAt: 3 },
      { noteId: 'n1', entityId: 'p', customerId: 'c1', importance: 'not important', setAt: 1 },
    ]);
    expect(Object.fromEntries(own)).toEqual({ f: 1 + 2 + 1, p: 0 });
    const parents = new Map<string, string | undefined>([
      ['p', undefined],
      ['c', 'p'],
      ['f', 'c'],
      ['q', undefined],
    ]);
    expect(Object.fromEntries(subtreeScores(parents, own))).toEqual({ p: 4, c: 4, f: 4, q: 0 });
  });
});

describe('hierarchy rules (pure)', () => {
  it.each([
    ['product', undefined, undefined],
    ['product', 'product', 'A product cannot have a parent.'],
    ['component', undefined, 'A component needs a parent (product or component).'],
    ['component', 'component', undefined],
    ['feature', 'component', undefined],
    ['feature', 'feature', 'A feature cannot have a feature parent; allowed: product or component.'],
    ['subfeature', 'feature', undefined],
    ['subfeature', undefined, 'A subfeature needs a parent (feature).'],
    ['user', undefined, undefined],
    ['user', 'company', undefined],
    ['user', 'product', 'A user cannot have a product parent; allowed: company.'],
    ['company', 'company', 'A company cannot have a parent.'],
  ] as const)('%s under %s', (child, parent, why) => {
    expect(parentRuleViolation(child, parent)).toBe(why);
  });

  it(`depth is capped at ${MAX_DEPTH}`, () => {
    expect(depthViolation(MAX_DEPTH - 1, 1)).toBeUndefined();
    expect(depthViolation(MAX_DEPTH - 1, 2)).toBe(`The hierarchy would be ${MAX_DEPTH + 1} levels deep; the maximum is ${MAX_DEPTH}.`);
  });
});
