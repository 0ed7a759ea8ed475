// The entity type filter of list operations: `type` and `type[]` (repeatable), all types when absent.
import { ApiError } from './errors.ts';
import type { Query } from './request.ts';
import { ENTITY_TYPES, isEntityType, type EntityType } from '../domain/configurations.ts';

export function typesFromQuery(query: Query, names: readonly string[] = ['type', 'type[]']): EntityType[] {
  const types: EntityType[] = [];
  for (const name of names) {
    for (const t of query.all(name)) {
      if (!isEntityType(t)) {
        throw new ApiError('request.invalid', `Unknown entity type '${t.slice(0, 100)}'; known types: ${ENTITY_TYPES.join(', ')}.`, { source: { parameter: name } });
      }
      if (!types.includes(t)) types.push(t);
    }
  }
  return types.length ? types : [...ENTITY_TYPES];
}
