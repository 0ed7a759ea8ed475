// Export files: gzip-compressed JSON lines (docs/export-format.md). Written through a stream (memory
// holds a chunk, not the file) to `<out>.partial`, created with mode 0600 (it holds the workspace's
// data), renamed to `<out>` once complete, so a killed export never leaves a file that looks whole.
// Read back line by line, each line checked by the format's schema with its line number.
import { isUtf8 } from 'node:buffer';
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { chmod, open, rename, stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import * as z from 'zod/mini';
import { parsedJsonProblem } from '#lib/domain/input.ts';
import { EndRecord, EXPORT_FORMAT, EXPORT_VERSION, ExportHeader, MoveRecord, type MoveRecord as Rec } from '#lib/domain/schemas/workspace-export.ts';
import { UsageError } from '../admin/command.ts';

/** Writes `lines` (each one JSON value) to `out`, gzip-compressed; answers the bytes written. */
export async function writeJsonLines(out: string, lines: AsyncIterable<unknown>): Promise<number> {
  const partial = `${out}.partial`;
  const handle = await open(partial, 'w', 0o600);
  // The mode of open() applies only to a file it creates: an older partial keeps its own otherwise.
  await handle.chmod(0o600);
  const text = async function* () {
    for await (const value of lines) yield JSON.stringify(value) + '\n';
  };
  await pipeline(Readable.from(text()), createGzip(), handle.createWriteStream());
  await chmod(partial, 0o600);
  await rename(partial, out);
  return (await stat(out)).size;
}

interface FileLine {
  /** 1-based. */
  n: number;
  value: unknown;
}

/** The longest line read: one record (a note with its links is the largest, far under it); a longer one is refused before it fills memory. */
export const MAX_LINE_BYTES = 16 * 1024 * 1024;

/**
 * The file's lines, parsed as JSON; `bytesRead` says how much of the compressed file was read, and
 * `digest`, once every line was read, the SHA-256 of its bytes (hex). Bytes that are not UTF-8 are
 * refused with their line, never replaced.
 */
export function readJsonLines(file: string): { lines: AsyncGenerator<FileLine>; size: Promise<number>; bytesRead: () => number; digest: () => string } {
  const raw = createReadStream(file);
  const gunzip = createGunzip();
  const hash = createHash('sha256');
  raw.on('data', (chunk) => hash.update(chunk));
  raw.pipe(gunzip);
  raw.on('error', (err) => gunzip.destroy(err));
  let n = 0;
  /** One line's bytes (without its LF) as JSON; undefined for an empty line. */
  const parse = (bytes: Buffer): FileLine | undefined => {
    n++;
    if (!isUtf8(bytes)) throw new UsageError(`${file} line ${n}: not UTF-8 text (invalid bytes are refused, never replaced)`);
    const text = bytes.toString('utf8').replace(/\r$/, '');
    if (text === '') return undefined;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      throw new UsageError(`${file} line ${n}: not JSON (${(err as Error).message})`);
    }
    // Refused as the API refuses them in a body: a name twice, a number that underflows, a lone surrogate.
    const problem = parsedJsonProblem(text, value);
    if (problem) throw new UsageError(`${file} line ${n}: ${problem.detail}`);
    return { n, value };
  };
  const lines = async function* () {
    try {
      // A line's bytes split on LF before decoding: a character cut across two chunks stays whole.
      let rest: Buffer[] = [];
      let restBytes = 0;
      const tooLong = () =>
        new UsageError(`${file} line ${n + 1}: longer than ${MAX_LINE_BYTES / 1024 / 1024} MiB, more than any record of an export; not read`);
      for await (const chunk of gunzip as AsyncIterable<Buffer>) {
        let start = 0;
        for (let end = chunk.indexOf(0x0a); end !== -1; end = chunk.indexOf(0x0a, start)) {
          if (restBytes + end - start > MAX_LINE_BYTES) throw tooLong();
          const line = parse(rest.length ? Buffer.concat([...rest, chunk.subarray(start, end)]) : chunk.subarray(start, end));
          rest = [];
          restBytes = 0;
          start = end + 1;
          if (line) yield line;
        }
        if (start < chunk.length) {
          rest.push(chunk.subarray(start));
          restBytes += chunk.length - start;
          if (restBytes > MAX_LINE_BYTES) throw tooLong();
        }
      }
      const last = rest.length ? parse(Buffer.concat(rest)) : undefined;
      if (last) yield last;
    } catch (err) {
      if ((err as { code?: string }).code === 'ENOENT') throw new UsageError(`Cannot read ${file}: no such file`);
      if ((err as { code?: string }).code?.startsWith('Z_')) throw new UsageError(`${file} is not a gzip-compressed export (${(err as Error).message})`);
      throw err;
    } finally {
      // Stopped early (the first line only, or a refusal): let go of the file.
      raw.destroy();
      gunzip.destroy();
    }
  };
  return {
    lines: lines(),
    size: stat(file).then(
      (s) => s.size,
      () => 0,
    ),
    bytesRead: () => raw.bytesRead,
    digest: () => hash.digest('hex'),
  };
}

const issue = (file: string, n: number, err: z.core.$ZodError) => {
  const first = err.issues[0]!;
  // zod says "Invalid input" of a key it does not know: name the key.
  const message = first.code === 'unrecognized_keys' ? `no such key ${first.keys.map((k) => `'${k.slice(0, 100)}'`).join(', ')}` : first.message;
  return new UsageError(`${file} line ${n}: ${first.path.length ? `${first.path.join('.')}: ` : ''}${message}`);
};

/** A line checked by its schema: the header, a record or the end. */
function parseLine<S extends z.ZodMiniType>(schema: S, file: string, line: FileLine): z.output<S> {
  const r = z.safeParse(schema, line.value);
  if (!r.success) throw issue(file, line.n, r.error);
  return r.data;
}

export const parseHeader = (file: string, line: FileLine | undefined) => {
  if (!line) throw new UsageError(`${file} is empty`);
  const { format, version } = (line.value ?? {}) as { format?: unknown; version?: unknown };
  if (format === EXPORT_FORMAT && version !== EXPORT_VERSION)
    throw new UsageError(
      `${file} is version ${JSON.stringify(version)} of the export format; this restore reads version ${EXPORT_VERSION} only (export the workspace again)`,
    );
  return parseLine(ExportHeader, file, line);
};

/** A record, or the end record. */
export function parseRecord(file: string, line: FileLine): Rec | z.output<typeof EndRecord> {
  if ((line.value as { kind?: unknown } | null)?.kind === 'end') return parseLine(EndRecord, file, line);
  return parseLine(MoveRecord, file, line);
}
