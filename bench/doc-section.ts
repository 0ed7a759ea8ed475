// docs/performance.md holds hand-written sections and sections each bench script generates; a
// script replaces only its own, between `<!-- begin NAME -->` and `<!-- end NAME -->` (appended
// at the end the first time).
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export const PERFORMANCE_DOC = join(import.meta.dirname, '..', 'docs', 'performance.md');

export function replaceSection(doc: string, name: string, markdown: string): string {
  const begin = `<!-- begin ${name} -->`;
  const end = `<!-- end ${name} -->`;
  const block = `${begin}\n${markdown.trim()}\n${end}`;
  const from = doc.indexOf(begin);
  const to = doc.indexOf(end);
  if (from >= 0 && to > from) return doc.slice(0, from) + block + doc.slice(to + end.length);
  return `${doc.trimEnd()}\n\n${block}\n`;
}

export async function writeSection(name: string, markdown: string): Promise<void> {
  const doc = await readFile(PERFORMANCE_DOC, 'utf8').catch(() => '# Performance\n');
  await writeFile(PERFORMANCE_DOC, replaceSection(doc, name, markdown));
}
