// Configuration resources of entity and note types: each type's fields with a JSON Schema of their
// value and its relationships (GET /v2/entities/configurations, /v2/notes/configurations).
import { configUrl } from './records.ts';
import { configurationOf, type EntityType, type NoteType } from '../domain/configurations.ts';
import { listCustomFields } from '../store/custom-fields.ts';

export async function configurationResources(workspaceId: string, kind: 'entities' | 'notes', types: ReadonlyArray<EntityType | NoteType>) {
  const custom = await listCustomFields(workspaceId);
  return types.map((type) => ({ ...configurationOf(type, custom), links: { self: configUrl(kind, type) } }));
}
