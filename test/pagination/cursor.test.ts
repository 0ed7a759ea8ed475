import { createCipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { serviceSecret } from '#lib/auth/service-secret.ts';
import { ApiError } from '#lib/http/errors.ts';
import { bindingOf, CURSOR_KEY_INFO, decodeCursor, encodeCursor, type PageScope } from '#lib/http/pagination.ts';

const scope: PageScope = {
  operationId: 'listEntities',
  workspaceId: 'ws-1',
  params: {},
  query: [
    ['type[]', 'feature'],
    ['fields[]', 'name'],
    ['limit', '10'],
  ],
};

async function refusal(p: Promise<unknown>): Promise<ApiError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ApiError);
  return err as ApiError;
}

async function expectCursorRefused(s: PageScope, cursor: string) {
  const err = await refusal(decodeCursor(s, cursor));
  expect([err.code, err.source]).toEqual(['request.invalid', { parameter: 'pageCursor' }]);
}

describe('pagination cursors', () => {
  it('a cursor carries its key back to the query that produced it', async () => {
    const cursor = await encodeCursor(scope, '2030-01-01T00:00:00.000Z#abc');
    expect(await decodeCursor(scope, cursor)).toBe('2030-01-01T00:00:00.000Z#abc');
    // pageCursor itself and parameter order do not change the query a cursor belongs to.
    const reordered = { ...scope, query: [...scope.query].reverse().concat([['pageCursor', cursor]]) };
    expect(await decodeCursor(reordered, cursor)).toBe('2030-01-01T00:00:00.000Z#abc');
  });

  it('is opaque: the key does not appear in clear text', async () => {
    const cursor = await encodeCursor(scope, 'secret-position');
    expect(cursor).not.toContain('secret-position');
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
  });

  it('is encrypted: the decoded bytes show no key layout ("#", ISO date, uuid), no 4 bytes of the plaintext; equal keys give different cursors', async () => {
    const uuid = '0f1e2d3c-4b5a-4697-8877-665544332211';
    const keys = [`2026-11-23T16:30:45.326Z#${uuid}`, ['2026-11-23T16:30:45.326Z', uuid], uuid];
    for (const key of keys) {
      const cursor = await encodeCursor(scope, key);
      expect(await decodeCursor(scope, cursor)).toEqual(key);
      const plaintext = JSON.stringify({ k: key });
      // Every 4-byte piece of what a readable cursor would hold (random bytes match one by chance ~1e-6).
      const pieces = Array.from({ length: plaintext.length - 3 }, (_, i) => plaintext.slice(i, i + 4));
      for (const bytes of cursor.split('.').map((p) => Buffer.from(p, 'base64url'))) {
        const text = bytes.toString('latin1');
        expect(text).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/);
        expect(text).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}/i);
        expect(text).not.toMatch(/Z#|#[0-9a-f]{4}/);
        expect(pieces.filter((p) => text.includes(p))).toEqual([]);
      }
      expect(await encodeCursor(scope, key)).not.toBe(cursor);
    }
  });

  /** Seals a cursor by hand: AES-256-GCM under `key`, the scope's binding as additional data. */
  const seal = (key: Uint8Array, s: PageScope, plaintext: string, tagLength = 16) => {
    const nonce = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, nonce, { authTagLength: tagLength });
    cipher.setAAD(Buffer.from(bindingOf(s)));
    const sealed = Buffer.concat([nonce, cipher.update(plaintext, 'utf8'), cipher.final()]);
    return `${sealed.toString('base64url')}.${cipher.getAuthTag().toString('base64url')}`;
  };

  it('its key is HKDF-SHA256(service secret, info) — a cursor sealed with the secret itself as the key is refused', async () => {
    const secret = await serviceSecret();
    const derived = Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), CURSOR_KEY_INFO, 32));
    expect(await decodeCursor(scope, seal(derived, scope, JSON.stringify({ k: 'by-hand' })))).toBe('by-hand');
    expect(secret.length).toBe(32);
    await expectCursorRefused(scope, seal(secret, scope, JSON.stringify({ k: 'by-hand' })));
    // The same derived key under another scope's binding: authentic bytes, wrong query.
    await expectCursorRefused(scope, seal(derived, { ...scope, workspaceId: 'ws-2' }, JSON.stringify({ k: 'by-hand' })));
  });

  it('a truncated authentication tag (12 of 16 bytes, which GCM would verify) → refused', async () => {
    const secret = await serviceSecret();
    const derived = Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), CURSOR_KEY_INFO, 32));
    await expectCursorRefused(scope, seal(derived, scope, JSON.stringify({ k: 'short-tag' }), 12));
    const [sealed, tag] = (await encodeCursor(scope, 'k')).split('.') as [string, string];
    await expectCursorRefused(scope, `${sealed}.${Buffer.from(tag, 'base64url').subarray(0, 12).toString('base64url')}`);
  });

  it('an authentic cursor whose plaintext is not a key (not JSON, a wrong shape) → refused', async () => {
    const secret = await serviceSecret();
    const derived = Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), CURSOR_KEY_INFO, 32));
    for (const plaintext of ['not json', '{"k":{"a":1}}', '{"k":null}', '[]']) await expectCursorRefused(scope, seal(derived, scope, plaintext));
  });

  it("another spelling of the same bytes (a last character's unused bits changed) → refused: a cursor has one spelling", async () => {
    const [sealed, tag] = (await encodeCursor(scope, 'k')).split('.') as [string, string];
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    // 16 bytes take 22 characters, the last of which carries 2 bits: its lowest bit is unused.
    const respelled = tag.slice(0, -1) + alphabet[alphabet.indexOf(tag.at(-1)!) ^ 1]!;
    expect(Buffer.from(respelled, 'base64url').equals(Buffer.from(tag, 'base64url'))).toBe(true);
    await expectCursorRefused(scope, `${sealed}.${respelled}`);
  });

  it('a ciphertext byte flipped → refused', async () => {
    const [sealed, tag] = (await encodeCursor(scope, 'a-longer-key-value')).split('.') as [string, string];
    const bytes = Buffer.from(sealed, 'base64url');
    bytes[bytes.length - 1]! ^= 0x01;
    await expectCursorRefused(scope, `${bytes.toString('base64url')}.${tag}`);
  });

  it('a forged cursor (payload changed, signature kept) → request.invalid on pageCursor', async () => {
    const cursor = await encodeCursor(scope, 'a');
    const [, sig] = cursor.split('.');
    const forged = `${Buffer.from(JSON.stringify({ k: 'z' })).toString('base64url')}.${sig}`;
    await expectCursorRefused(scope, forged);
  });

  it.each([
    ['empty', ''],
    ['garbage', 'not-a-cursor'],
    ['three parts', 'a.b.c'],
    ['bad characters', 'a+b.c/d'],
    ['huge', 'a'.repeat(5000) + '.b'],
  ])('a garbled cursor (%s) → request.invalid on pageCursor', async (_n, cursor) => {
    await expectCursorRefused(scope, cursor);
  });

  it('a cursor with one signature byte flipped → refused', async () => {
    const cursor = await encodeCursor(scope, 'a');
    const last = cursor.at(-2) === 'A' ? 'B' : 'A';
    await expectCursorRefused(scope, cursor.slice(0, -2) + last + cursor.at(-1));
  });

  it.each<[string, Partial<PageScope>]>([
    ['another workspace', { workspaceId: 'ws-2' }],
    ['another operation', { operationId: 'listNotes' }],
    [
      'another filter',
      {
        query: [
          ['type[]', 'product'],
          ['fields[]', 'name'],
          ['limit', '10'],
        ],
      },
    ],
    [
      'another limit',
      {
        query: [
          ['type[]', 'feature'],
          ['fields[]', 'name'],
          ['limit', '20'],
        ],
      },
    ],
    [
      'a parameter dropped',
      {
        query: [
          ['type[]', 'feature'],
          ['limit', '10'],
        ],
      },
    ],
    ['another path parameter', { params: { id: 'x' } }],
    ['another body', { body: { types: ['feature'] } }],
  ])('a foreign cursor (%s) → refused', async (_n, change) => {
    const cursor = await encodeCursor(scope, 'a');
    await expectCursorRefused({ ...scope, ...change }, cursor);
  });

  it('search bodies bind by content, not key order', async () => {
    const a: PageScope = { ...scope, body: { types: ['feature'], archived: false } };
    const b: PageScope = { ...scope, body: { archived: false, types: ['feature'] } };
    expect(await decodeCursor(b, await encodeCursor(a, 'k'))).toBe('k');
  });
});
