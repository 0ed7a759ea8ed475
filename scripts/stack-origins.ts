// A deployed function's stack trace in the source's terms: the functions run without Node's
// --enable-source-maps (it reads and parses the bundle's map at every cold start;
// docs/performance.md, "Cold start"), so a logged stack names positions in the minified bundle.
// Each bundle ships its own map beside it (infra/bundling.ts), and this rewrites every position of
// that bundle in a text — a plain stack or a JSON log line — to the original file, line and column.
import { SourceMap, type SourceMapPayload } from 'node:module';

/** `index.mjs:LINE:COLUMN`, after any path (`file:///var/task/`, `/var/task/`): the positions a stack gives in the bundle the map describes. */
const positionsIn = (bundleName: string) => new RegExp(`[^\\s()"'\\\\]*\\b${bundleName.replace(/[.]/g, '\\.')}:(\\d+):(\\d+)`, 'g');

/**
 * A source as the map names it, relative to where the bundle was built (`../../lib/…` from
 * cdk.out): from `node_modules/` on for a package, else without the leading `../` segments.
 */
function readable(source: string): string {
  const path = source.replace(/^file:\/\//, '');
  const packageAt = path.lastIndexOf('node_modules/');
  return packageAt >= 0 ? path.slice(packageAt) : path.replace(/^(\.\.\/)+/, '');
}

/** `text` with each position in the mapped bundle replaced by `source:line:column`; a position the map does not cover stays as it was. */
export function sourceStack(text: string, payload: SourceMapPayload): string {
  const map = new SourceMap(payload);
  return text.replace(positionsIn(payload.file || 'index.mjs'), (position: string, line: string, column: string) => {
    const origin = map.findOrigin(Number(line), Number(column));
    return 'fileName' in origin ? `${readable(origin.fileName)}:${origin.lineNumber}:${origin.columnNumber}` : position;
  });
}
