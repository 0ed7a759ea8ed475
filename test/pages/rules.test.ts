// The member pages' pure rules: where a sign-in may go next, the scopes a page session holds, the
// ranking order, and what survives the sanitiser of member-written HTML.
import { describe, expect, it } from 'vitest';
import { homeTypes, mayHaveChildren, pageScopes, rankOrder, safeNext } from '#lib/domain/member-pages.ts';
import { ROLE_SCOPES, ROLES } from '#lib/domain/scopes.ts';
import { formatDate, formatNumber, typeLabel } from '#lib/http/member-pages/format.ts';
import { noteExcerpt } from '#lib/http/member-pages/parts.ts';
import { plainText, richText } from '#lib/http/member-pages/rich-text.ts';

const ID = '0f8fad5b-d9cb-469f-a165-70867728950e';

describe('safeNext: a relative path of these pages, else home', () => {
  it.each([
    [`/entities/${ID}`, `/entities/${ID}`],
    [`/notes/${ID}`, `/notes/${ID}`],
    [`/members/${ID}?notes=abc.DEF-_1`, `/members/${ID}?notes=abc.DEF-_1`],
    [`/teams/${ID}?members=abc.DEF-_1`, `/teams/${ID}?members=abc.DEF-_1`],
    ['/teams', '/'],
    [`/entities/${ID}?children=all&after=x.y`, `/entities/${ID}?children=all&after=x.y`],
    ['/', '/'],
    [undefined, '/'],
    ['', '/'],
    ['https://attacker.example/', '/'],
    ['//attacker.example', '/'],
    ['///attacker.example', '/'],
    ['/\\attacker.example', '/'],
    ['\\\\attacker.example', '/'],
    ['http:/attacker.example', '/'],
    ['javascript:alert(1)', '/'],
    ['/%2F%2Fattacker.example', '/'],
    [`/entities/${ID}/../../sign-out`, '/'],
    [`/entities/${ID}#frag`, '/'],
    [`/entities/${ID}?x=<script>`, '/'],
    [`/entities/${ID}?x=//attacker.example`, '/'],
    [`/entities/${ID}\n`, '/'],
    ['/oauth/consent', '/'],
    ['/sign-out', '/'],
    ['/v2/entities', '/'],
    [`/entities/${ID}?${'a'.repeat(3000)}`, '/'],
  ])('%j → %j', (next, expected) => {
    expect(safeNext(next)).toBe(expected);
  });
});

describe('page session scopes', () => {
  it("are the read scopes of the mirrored REST routes that the member's role allows, never a write scope", () => {
    for (const role of ROLES) {
      const scopes = [...pageScopes(role)];
      expect(scopes).toEqual(
        ['entities:read', 'notes:read', 'members:read', 'members:pii:read', 'users:pii:read', 'teams:read'].filter((s) =>
          (ROLE_SCOPES[role] as readonly string[]).includes(s),
        ),
      );
      expect(scopes.every((s) => s.endsWith(':read'))).toBe(true);
    }
    expect([...pageScopes('viewer')]).toEqual(['entities:read', 'notes:read', 'members:read', 'members:pii:read', 'users:pii:read', 'teams:read']);
  });
});

describe('ranking order', () => {
  it('highest score first, equal scores by name, then id; no score counts as 0', () => {
    const rows = [
      { id: '3', name: 'beta', score: 2 },
      { id: '2', name: 'Alpha', score: 2 },
      { id: '1', name: 'gamma', score: 9 },
      { id: '5', name: 'same', score: 1 },
      { id: '4', name: 'same', score: 1 },
      { id: '6', name: 'none' },
    ];
    expect([...rows].sort(rankOrder).map((r) => r.id)).toEqual(['1', '2', '3', '4', '5', '6']);
  });

  it('subfeatures have nothing under them; home lists the types that need no parent, customers aside', () => {
    expect(mayHaveChildren('subfeature')).toBe(false);
    expect(mayHaveChildren('product')).toBe(true);
    expect(mayHaveChildren('company')).toBe(true);
    expect(homeTypes()).toContain('product');
    expect(homeTypes()).not.toContain('company');
    expect(homeTypes()).not.toContain('feature');
  });
});

describe('member-written HTML', () => {
  it('keeps structure and plain links; drops scripts, handlers, styles, images, frames, forms and other URL schemes', () => {
    const out = richText(
      '<h1>Title</h1><p class="x" style="color:red" onclick="steal()">Hello <strong>there</strong></p>' +
        '<script>alert(1)</script><style>p{}</style><img src=x onerror="alert(2)"><iframe src="https://x.example"></iframe>' +
        '<form action="https://x.example"><input name=a></form><svg onload="alert(3)"><circle/></svg>' +
        '<a href="javascript:alert(4)">js</a><a href="JaVaScRiPt:alert(5)">js2</a><a href="data:text/html,x">data</a>' +
        '<a href="https://ok.example/a?b=1" target="_blank" onclick="x()">ok</a><a href="mailto:a@b.example">mail</a><a href="//proto.example">rel</a>' +
        '<ul><li>one</li></ul><blockquote>q</blockquote><h5>small</h5>',
    ).text;
    expect(out).toBe(
      '<h3>Title</h3><p>Hello <strong>there</strong></p>' +
        '' +
        '<a rel="noopener noreferrer nofollow ugc">js</a><a rel="noopener noreferrer nofollow ugc">js2</a><a rel="noopener noreferrer nofollow ugc">data</a>' +
        '<a href="https://ok.example/a?b=1" rel="noopener noreferrer nofollow ugc">ok</a><a href="mailto:a@b.example" rel="noopener noreferrer nofollow ugc">mail</a><a rel="noopener noreferrer nofollow ugc">rel</a>' +
        '<ul><li>one</li></ul><blockquote>q</blockquote><h4>small</h4>',
    );
  });

  it('text for excerpts: tags gone, entities read, blocks apart, cut at a word with an ellipsis', () => {
    expect(plainText('<p>a &amp; b &lt;c&gt;</p><p>next</p><script>x</script>')).toBe('a & b <c> next');
    expect(plainText('one two three four five six', 14)).toBe('one two three…');
    expect(noteExcerpt([{ content: 'Hi <b>there</b>' }, { content: 'second part' }])).toBe('Hi there second part');
    expect(noteExcerpt(undefined)).toBe('');
  });

  it('dates are written day, short month, year in UTC, inside a <time> element with the instant; what is no date says so', () => {
    expect(String(formatDate('2025-03-03T23:30:00.000Z'))).toBe('<time datetime="2025-03-03T23:30:00.000Z">3 Mar 2025</time>');
    expect(String(formatDate(Date.UTC(2026, 8, 30)))).toBe('<time datetime="2026-09-30T00:00:00.000Z">30 Sep 2026</time>');
    expect(String(formatDate('2026-12-31T23:59:59.999-01:00'))).toBe('<time datetime="2027-01-01T00:59:59.999Z">1 Jan 2027</time>');
    expect(String(formatDate('not a date'))).toBe('<span>unknown date</span>');
  });

  it('numbers and type names are written for people', () => {
    expect([0, 7, 999, 1000, 54321, 1234567, -1234, 1234.5].map(formatNumber)).toEqual(['0', '7', '999', '1,000', '54,321', '1,234,567', '-1,234', '1,234.5']);
    // The same as Intl's en-US for every whole number the pages show.
    for (const n of [0, 12, 123, 1234, 99999, 100000, 7654321, 2 ** 40]) expect(formatNumber(n)).toBe(new Intl.NumberFormat('en-US').format(n));
    expect(typeLabel('keyResult')).toBe('Key result');
    expect(typeLabel('feature')).toBe('Feature');
  });
});
