// The rows of a feedback file: CSV (RFC 4180: a header row, fields quoted with `"` when they hold a
// comma, a quote or a line break) or JSON lines (one object per line, its keys the columns). Each row
// with the line it starts on, for the refusals. The CSV reader is these few lines rather than a
// package: the lockfile is shared by every branch of this project, and RFC 4180 is small.
import { isUtf8 } from 'node:buffer';
import { readFile } from 'node:fs/promises';
import { parsedJsonProblem } from '#lib/domain/input.ts';
import { UsageError } from '../admin/command.ts';

export interface Row {
  line: number;
  values: Record<string, unknown>;
}

function csvRecords(file: string, text: string): Array<{ line: number; fields: string[] }> {
  const out: Array<{ line: number; fields: string[] }> = [];
  let line = 1;
  let i = 0;
  while (i < text.length) {
    const start = line;
    const fields: string[] = [];
    for (;;) {
      let value = '';
      if (text[i] === '"') {
        i++;
        for (;;) {
          if (i >= text.length) throw new UsageError(`${file} line ${start}: a quoted field is not closed; nothing was written`);
          if (text[i] === '"') {
            if (text[i + 1] === '"') {
              value += '"';
              i += 2;
              continue;
            }
            i++;
            // RFC 4180: a quoted field ends with its field; text after the quote would be misread.
            if (i < text.length && text[i] !== ',' && text[i] !== '\n' && text[i] !== '\r')
              throw new UsageError(
                `${file} line ${line}: text after the closing quote of a field (a quote inside a quoted field is written twice: ""); nothing was written`,
              );
            break;
          }
          // A line ends at LF, CRLF or a lone CR (as old Mac files end them): each is counted once.
          if (text[i] === '\n' || (text[i] === '\r' && text[i + 1] !== '\n')) line++;
          value += text[i++];
        }
      } else {
        while (i < text.length && text[i] !== ',' && text[i] !== '\n' && text[i] !== '\r') value += text[i++];
      }
      fields.push(value);
      if (text[i] === ',') {
        i++;
        continue;
      }
      if (text[i] === '\r' || text[i] === '\n') {
        if (text[i] === '\r' && text[i + 1] === '\n') i++;
        i++;
        line++;
      }
      break;
    }
    if (!(fields.length === 1 && fields[0] === '')) out.push({ line: start, fields });
  }
  return out;
}

/** The file's text; bytes that are not UTF-8 are refused with their line, never replaced. */
function utf8Text(file: string, bytes: Buffer): string {
  if (isUtf8(bytes)) return bytes.toString('utf8');
  let start = 0;
  for (let line = 1; ; line++) {
    const end = bytes.indexOf(0x0a, start);
    if (!isUtf8(bytes.subarray(start, end === -1 ? bytes.length : end)))
      throw new UsageError(`${file} line ${line}: not UTF-8 text (invalid bytes are refused, never replaced); nothing was written`);
    start = end + 1;
  }
}

/** The file's rows (and a CSV file's columns); `.jsonl` (or `.json`) is JSON lines, anything else CSV. */
export async function readRows(file: string): Promise<{ rows: Row[]; bytes: Buffer; columns?: string[] }> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (err) {
    throw new UsageError(`Cannot read --in ${file}: ${(err as Error).message}`);
  }
  const text = utf8Text(file, bytes).replace(/^\uFEFF/, '');
  if (/\.jsonl?$/i.test(file)) {
    const rows: Row[] = [];
    text.split('\n').forEach((l, i) => {
      if (l.trim() === '') return;
      let v: unknown;
      try {
        v = JSON.parse(l);
      } catch {
        v = undefined;
      }
      // Refused as the API refuses them in a body: a name twice, a number that underflows, a lone surrogate.
      const problem = v === undefined ? undefined : parsedJsonProblem(l, v);
      if (problem) throw new UsageError(`${file} line ${i + 1}: ${problem.detail.replace(/\.$/, '')}; nothing was written`);
      rows.push({ line: i + 1, values: v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : { __invalid: l.slice(0, 80) } });
    });
    return { rows, bytes };
  }
  const [header, ...records] = csvRecords(file, text);
  if (!header) throw new UsageError(`${file} is empty`);
  const columns = header.fields.map((h) => h.trim());
  // A row of more fields than the header would lose the rest, and one of fewer is most often a line
  // broken in two by an unquoted line break (its second half read as a row of its own).
  const uneven = records.find((r) => r.fields.length !== columns.length);
  if (uneven)
    throw new UsageError(
      `${file} line ${uneven.line}: ${uneven.fields.length} fields where the header has ${columns.length} (a field that holds a comma or a line break is quoted: "a, b"); nothing was written`,
    );
  return { rows: records.map((r) => ({ line: r.line, values: Object.fromEntries(columns.map((h, i) => [h, r.fields[i] ?? ''])) })), bytes, columns };
}
