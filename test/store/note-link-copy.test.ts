// The copy of a note's links on its item (lib/store/note-link-copy.ts): what a note item holds, and
// what a link write does to it at the cap (pure functions; the writes themselves are covered through
// the API in test/notes/list-reads.test.ts and test/score/verify.test.ts).
import { describe, expect, it } from 'vitest';
import { COPY_MARK, copyAttributes, copyUpdate, MAX_COPIED_LINKS, readCopy, type CopiedLink } from '#lib/store/note-link-copy.ts';

const link = (i: number): CopiedLink => ({ entityId: `e${String(i).padStart(4, '0')}`, entityType: 'feature', importance: 'important' });
const links = (n: number) => Array.from({ length: n }, (_, i) => link(i));

describe("the copy of a note's links", () => {
  it('a new note holds the mark and one attribute per link, read back in entity id order; past the cap, nothing (the note is read through the Query)', () => {
    const item = { kind: 'note', ...copyAttributes([link(2), link(1)]) };
    expect(item).toEqual({
      kind: 'note',
      [COPY_MARK]: true,
      'L#e0002': { entityType: 'feature', importance: 'important' },
      'L#e0001': { entityType: 'feature', importance: 'important' },
    });
    expect(readCopy(item)).toEqual([link(1), link(2)]);
    expect(copyAttributes(links(MAX_COPIED_LINKS))[COPY_MARK]).toBe(true);
    expect(copyAttributes(links(MAX_COPIED_LINKS + 1))).toEqual({});
  });

  it('attributes without the mark are no copy', () => {
    expect(readCopy({ kind: 'note', 'L#e0001': { entityType: 'feature', importance: 'important' } })).toBeUndefined();
    expect(readCopy({ kind: 'note', [COPY_MARK]: true })).toEqual([]);
  });

  it('a link write sets its attribute; new links taking a copy past the cap remove the mark instead, re-rates there still set', () => {
    const names: Record<string, string> = {};
    const values: Record<string, unknown> = {};
    expect(copyUpdate(links(3), [{ ...link(1), importance: 'critical' }], names, values)).toEqual({ set: '#copy0 = :copy0' });
    expect([names, values]).toEqual([{ '#copy0': 'L#e0001' }, { ':copy0': { entityType: 'feature', importance: 'critical' } }]);
    const full = links(MAX_COPIED_LINKS);
    const atCap: Record<string, string> = {};
    expect(copyUpdate(full, [link(MAX_COPIED_LINKS)], atCap, {})).toEqual({ remove: '#copied' });
    expect(atCap).toEqual({ '#copied': COPY_MARK });
    expect(copyUpdate(full, [link(0)], {}, {})).toEqual({ set: '#copy0 = :copy0' });
    // Several at once (a step of a note's creation): each its own attribute while they fit, the mark removed once they do not.
    const several: Record<string, string> = {};
    expect(copyUpdate(links(MAX_COPIED_LINKS - 2), [link(0), link(MAX_COPIED_LINKS - 2), link(MAX_COPIED_LINKS - 1)], several, {})).toEqual({
      set: '#copy0 = :copy0, #copy1 = :copy1, #copy2 = :copy2',
    });
    expect(several).toEqual({ '#copy0': 'L#e0000', '#copy1': `L#e00${MAX_COPIED_LINKS - 2}`, '#copy2': `L#e00${MAX_COPIED_LINKS - 1}` });
    expect(copyUpdate(links(MAX_COPIED_LINKS - 2), [link(MAX_COPIED_LINKS - 2), link(MAX_COPIED_LINKS - 1), link(MAX_COPIED_LINKS)], {}, {})).toEqual({
      remove: '#copied',
    });
  });
});
