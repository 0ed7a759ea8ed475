// Ids of moved records: a UUIDv5 of (target workspace, source, the record's id at the source). A
// re-run of the same move addresses the same items, and no id of one workspace is another's.
import { uuidV5 } from '../../domain/uuid-v5.ts';

/** `source` names where the ids come from: `export:<workspace id>`, a Productboard base URL, a notes file's hash. */
export const idMapping =
  (ws: string, source: string) =>
  (sourceId: string): string =>
    uuidV5(ws, `${source}\n${sourceId}`);
