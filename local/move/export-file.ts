// Export files: gzip-compressed JSON lines (docs/export-format.md). Written through a stream (memory
// holds a chunk, not the file) to `<out>.partial`, created with mode 0600 (it holds the workspace's
// data), renamed to `<out>` once complete, so a killed export never leaves a file that looks whole.
// Read back line by line, each line checked by the format's schema with its line number.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { chmod, open, rename, stat } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import * as z from 'zod/mini';
import { EndRecord, ExportHeader, MoveRecord, type MoveRecord as Rec } from '#lib/domain/schemas/workspace-export.ts';
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

/** The SHA-256 of the file's bytes, hex. */
export async function fileDigest(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(file), hash);
  return hash.digest('hex');
}

interface FileLine {
  /** 1-based. */
  n: number;
  value: unknown;
}

/** The file's lines, parsed as JSON; `bytesRead` says how much of the compressed file was read. */
export function readJsonLines(file: string): { lines: AsyncGenerator<FileLine>; size: Promise<number>; bytesRead: () => number } {
  const raw = createReadStream(file);
  const gunzip = createGunzip();
  raw.pipe(gunzip);
  raw.on('error', (err) => gunzip.destroy(err));
  const lines = async function* () {
    let n = 0;
    try {
      for await (const text of createInterface({ input: gunzip, crlfDelay: Infinity })) {
        n++;
        if (text === '') continue;
        let value: unknown;
        try {
          value = JSON.parse(text);
        } catch (err) {
          throw new UsageError(`${file} line ${n}: not JSON (${(err as Error).message})`);
        }
        yield { n, value };
      }
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
  };
}

const issue = (file: string, n: number, err: z.core.$ZodError) => {
  const first = err.issues[0]!;
  return new UsageError(`${file} line ${n}: ${first.path.length ? `${first.path.join('.')}: ` : ''}${first.message}`);
};

/** A line checked by its schema: the header, a record or the end. */
function parseLine<S extends z.ZodMiniType>(schema: S, file: string, line: FileLine): z.output<S> {
  const r = z.safeParse(schema, line.value);
  if (!r.success) throw issue(file, line.n, r.error);
  return r.data;
}

export const parseHeader = (file: string, line: FileLine | undefined) => {
  if (!line) throw new UsageError(`${file} is empty`);
  return parseLine(ExportHeader, file, line);
};

/** A record, or the end record. */
export function parseRecord(file: string, line: FileLine): Rec | z.output<typeof EndRecord> {
  if ((line.value as { kind?: unknown } | null)?.kind === 'end') return parseLine(EndRecord, file, line);
  return parseLine(MoveRecord, file, line);
}
