// Productboard's documents against what the compatibility suite derives from them: the committed
// client types, the named patches, and docs/compatibility.md.
import { readdir, readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { EVENT_TYPES } from '#lib/domain/events.ts';
import { ROUTES } from '#lib/routes.ts';
import { generatedTypesUrl, generateTypes } from './generate-types.ts';
import { PATCHES } from './patches.ts';
import { DOCUMENT_NAMES, documentsDir, loadDocument, operations, resolvePointer, withoutProse } from './productboard.ts';
import { patchApplicationProblems } from './validate.ts';

describe("Productboard's documents", () => {
  it.each(DOCUMENT_NAMES)('test/compat/generated/%s.ts is what openapi-typescript makes of the document (npm run compat:types)', async (name) => {
    expect(await readFile(generatedTypesUrl(name), 'utf8')).toBe(await generateTypes(name));
  });

  it('the generated types carry no prose of the documents', () => {
    const stripped = JSON.stringify(withoutProse(loadDocument('notes')));
    expect(stripped).not.toMatch(/"(description|summary|examples?)":/);
    // ...but keep a property that happens to be called "description" (a field create body has one).
    const fields = '/components/requestBodies/FieldCreateRequestBody/content/application~1json/schema/properties/data/properties/fields/properties';
    expect(resolvePointer(withoutProse(loadDocument('entities')), `${fields}/description`)).toEqual({ $ref: '#/components/schemas/RichTextFieldValue' });
  });

  it('define these operations (a new one needs a check in test/compat/ or a reason not to)', () => {
    expect([...operations().keys()].sort()).toEqual([
      'createEntity',
      'createEntityFieldValue',
      'createEntityRelationship',
      'createNote',
      'createNoteComment',
      'createNoteRelationship',
      'createTeam',
      'createWebhook',
      'deleteEntity',
      'deleteEntityFieldValue',
      'deleteEntityRelationship',
      'deleteNote',
      'deleteNoteRelationship',
      'deleteTeam',
      'deleteWebhook',
      'getCustomerScore',
      'getEntity',
      'getEntityConfiguration',
      'getMember',
      'getNote',
      'getNoteConfiguration',
      'getTeam',
      'getWebhook',
      'listEntities',
      'listEntityConfigurations',
      'listEntityFieldValues',
      'listEntityRelationships',
      'listMembers',
      'listNoteConfigurations',
      'listNoteRelationships',
      'listNotes',
      'listTeamMembers',
      'listTeams',
      'listWebhooks',
      'performEntitiesSearch',
      'performMembersSearch',
      'performNotesSearch',
      'performTeamsSearch',
      'replaceEntityRelationship',
      'replaceNoteCustomerRelationship',
      'updateEntity',
      'updateEntityFieldValue',
      'updateNote',
      'updateTeam',
    ]);
  });

  it("docs/compatibility.md lists exactly the operations of Productboard's nine documents that no route serves", async () => {
    const files = (await readdir(documentsDir)).filter((f) => f.endsWith('.yaml')).sort();
    expect(files).toHaveLength(9);
    const served = new Set(ROUTES.map((r) => `${r.method} ${r.path}`));
    const unserved: string[] = [];
    for (const file of files) {
      // Every document is JSON after a few `#` comment lines (./productboard.ts).
      const text = await readFile(new URL(file, documentsDir), 'utf8');
      const doc = JSON.parse(text.replace(/^(#[^\n]*\n)+/, '')) as { paths: Record<string, Record<string, { operationId?: string }>> };
      for (const [path, methods] of Object.entries(doc.paths)) {
        for (const [method, op] of Object.entries(methods)) {
          if (op?.operationId && !served.has(`${method.toUpperCase()} /v2${path}`))
            unserved.push(`${op.operationId} (\`${method.toUpperCase()} ${path}\`) | ${file.replace(/\.yaml$/, '')}`);
        }
      }
    }
    const page = await readFile(new URL('../../docs/compatibility.md', import.meta.url), 'utf8');
    const section = page.slice(page.indexOf('## Operations not served'), page.indexOf('\n## ', page.indexOf('## Operations not served') + 1));
    const listed = [...section.matchAll(/^\| `(\w+)` (\(`[A-Z]+ [^`]+`\)) \| ([a-z-]+) \|/gm)].map((m) => `${m[1]} ${m[2]} | ${m[3]}`);
    expect(listed.sort()).toEqual(unserved.sort());
    expect(unserved.length).toBeGreaterThan(0);
  });

  it("webhook-event-types-ours adds exactly the event types we emit that Productboard's WebhookEventType lacks", () => {
    const theirs = resolvePointer(loadDocument('webhooks'), '/components/schemas/WebhookEventType/enum') as string[];
    const patch = PATCHES.find((p) => p.name === 'webhook-event-types-ours');
    const added = patch?.edits.flatMap((e) => (e.op === 'extendEnum' ? e.values : []));
    expect([...(added ?? [])].sort()).toEqual(EVENT_TYPES.filter((t) => !theirs.includes(t)).sort());
  });

  it('every named patch applies to its documents (each edit finds what it changes)', () => {
    expect(patchApplicationProblems()).toEqual([]);
  });

  it('docs/compatibility.md has one row per named patch, and no other', async () => {
    const doc = await readFile(new URL('../../docs/compatibility.md', import.meta.url), 'utf8');
    const rows = [...doc.matchAll(/^\| `([a-z0-9-]+)` \|/gm)].map((m) => m[1]);
    expect(rows.sort()).toEqual(PATCHES.map((p) => p.name).sort());
  });

  it('patch names are unique and every patch says where it applies', () => {
    const names = PATCHES.map((p) => p.name);
    expect(new Set(names).size).toBe(names.length);
    for (const p of PATCHES) {
      expect(p.where.documents.length, p.name).toBeGreaterThan(0);
      expect(p.where.statuses.length, p.name).toBeGreaterThan(0);
      expect(p.where.paths.length, p.name).toBeGreaterThan(0);
      expect(p.edits.length, p.name).toBeGreaterThan(0);
    }
  });
});
