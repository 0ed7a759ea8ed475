// Productboard's documents against what the compatibility suite derives from them: the committed
// client types.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { generatedTypesUrl, generateTypes } from './generate-types.ts';
import { DOCUMENT_NAMES, loadDocument, operations, resolvePointer, withoutProse } from './productboard.ts';

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
      'createEntity', 'createEntityFieldValue', 'createEntityRelationship', 'createNote', 'createNoteComment', 'createNoteRelationship',
      'deleteEntity', 'deleteEntityFieldValue', 'deleteEntityRelationship', 'deleteNote', 'deleteNoteRelationship',
      'getCustomerScore', 'getEntity', 'getEntityConfiguration', 'getMember', 'getNote', 'getNoteConfiguration',
      'listEntities', 'listEntityConfigurations', 'listEntityFieldValues', 'listEntityRelationships', 'listMembers', 'listNoteConfigurations', 'listNoteRelationships', 'listNotes',
      'performEntitiesSearch', 'performMembersSearch', 'performNotesSearch',
      'replaceEntityRelationship', 'replaceNoteCustomerRelationship', 'updateEntity', 'updateEntityFieldValue', 'updateNote',
    ]);
  });

});
