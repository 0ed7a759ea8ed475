// What the score tests take from the system under test besides its HTTP API: the documented depth
// cap (lib/domain/hierarchy.ts) and the operator's `score verify` command (local/admin/score.ts).
import type { VerifyReport } from '#lib/store/verify.ts';
import { verifyScores } from '../../local/admin/score.ts';

export { MAX_DEPTH } from '#lib/domain/hierarchy.ts';

/** `npm run --silent admin -- score verify --workspace W` (no repair), in-process against the test table. */
export function verifyWorkspace(workspaceId: string): Promise<VerifyReport> {
  return verifyScores({ workspace: workspaceId, repair: false });
}
