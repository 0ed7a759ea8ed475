// The short records the MCP tools answer where a full API record would say too much.
import { config } from '../../config.ts';
import { entityLink } from '../../domain/entity-view.ts';
import type { EntityItem } from '../../store/entities.ts';

/** An entity's id, type and name, and its address in the REST API. */
export const entitySummary = (e: EntityItem) => ({
  id: e.id,
  type: e.type,
  name: typeof e.fields.name === 'string' ? e.fields.name : '',
  ...(e.parentId ? { parentId: e.parentId } : {}),
  link: entityLink(config.baseUrl, e.id),
});
