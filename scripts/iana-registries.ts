// IANA's IPv4 and IPv6 Special-Purpose Address Registries, checked in as IANA publishes them
// (lib/events/iana/*.csv, the registries' CSV exports), become the typed module the webhook
// destination guard reads (lib/events/iana/special-purpose.ts): `npm run iana` writes it, and a
// test holds the written module to what this gives. The CSV is read here, at build time, so that
// the deployed function carries no parser and no file it would have to find at run time.
//
// To refresh: replace both CSV files with the current exports, set `lastUpdated` below to each
// registry page's "Last Updated" date, run `npm run iana`, and run test/events/destination.test.ts.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');

/** The two registries: where each came from, and the date IANA last changed it. */
export const REGISTRIES = [
  {
    constant: 'IPV4_SPECIAL_PURPOSE',
    file: 'lib/events/iana/iana-ipv4-special-registry-1.csv',
    registry: 'https://www.iana.org/assignments/iana-ipv4-special-registry/',
    lastUpdated: '2025-10-09',
  },
  {
    constant: 'IPV6_SPECIAL_PURPOSE',
    file: 'lib/events/iana/iana-ipv6-special-registry-1.csv',
    registry: 'https://www.iana.org/assignments/iana-ipv6-special-registry/',
    lastUpdated: '2025-10-09',
  },
] as const;

const HEADER = [
  'Address Block',
  'Name',
  'RFC',
  'Allocation Date',
  'Termination Date',
  'Source',
  'Destination',
  'Forwardable',
  'Globally Reachable',
  'Reserved-by-Protocol',
];

/**
 * RFC 4180 records: quoted fields may hold commas, line breaks and doubled quotes. (Two small
 * files read at build time do not need a CSV package.)
 */
export function csvRecords(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c !== '"') field += c;
      else if (text[i + 1] === '"') field += text[++i];
      else quoted = false;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      record.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      record.push(field);
      records.push(record);
      record = [];
      field = '';
    } else field += c;
  }
  if (quoted) throw new Error('The CSV ends inside a quoted field.');
  if (field !== '' || record.length > 0) records.push([...record, field]);
  return records;
}

/** One block of a registry entry (an entry naming two blocks gives two). */
export interface RegistryBlock {
  prefix: string;
  name: string;
  rfc: string;
  allocated: string;
  terminated?: string;
  source?: boolean;
  destination?: boolean;
  forwardable?: boolean;
  globallyReachable?: boolean;
  reservedByProtocol?: boolean;
}

/** A cell without IANA's footnote marks ("False [1]", "2002::/16 [3]") and line breaks. */
const clean = (cell: string) =>
  cell
    .replace(/\s*\[\d+\]/g, '')
    .replace(/\s+/g, ' ')
    .trim();

/** True, False, or nothing: N/A (see the footnote) and a terminated entry's empty cell say neither. */
function flag(cell: string, where: string): boolean | undefined {
  const value = clean(cell);
  if (value === 'True') return true;
  if (value === 'False') return false;
  if (value === 'N/A' || value === '') return undefined;
  throw new Error(`${where}: "${cell}" is not True, False or N/A`);
}

/** The registry's entries, one per block, in the registry's order; anything unexpected throws. */
export function registryBlocks(csv: string, file: string): RegistryBlock[] {
  const [header, ...rows] = csvRecords(csv);
  if (JSON.stringify(header) !== JSON.stringify(HEADER)) throw new Error(`${file}: the header is not IANA's: ${JSON.stringify(header)}`);
  return rows.flatMap((row, i) => {
    const where = `${file} row ${i + 2}`;
    if (row.length !== HEADER.length) throw new Error(`${where}: ${row.length} fields, not ${HEADER.length}`);
    const [block, name, rfc, allocated, termination, source, destination, forwardable, reachable, reserved] = row as [
      string,
      string,
      string,
      string,
      string,
      string,
      string,
      string,
      string,
      string,
    ];
    const prefixes = clean(block)
      .split(',')
      .map((p) => p.trim());
    for (const p of prefixes) if (!/^[0-9a-f.:]+\/\d{1,3}$/i.test(p)) throw new Error(`${where}: "${p}" is not an address block`);
    const terminated = clean(termination);
    return prefixes.map((prefix) => ({
      prefix,
      name: clean(name),
      rfc: clean(rfc),
      allocated: clean(allocated),
      ...(terminated && terminated !== 'N/A' ? { terminated } : {}),
      ...defined('source', flag(source, where)),
      ...defined('destination', flag(destination, where)),
      ...defined('forwardable', flag(forwardable, where)),
      ...defined('globallyReachable', flag(reachable, where)),
      ...defined('reservedByProtocol', flag(reserved, where)),
    }));
  });
}

const defined = <K extends string>(key: K, value: boolean | undefined): Partial<Record<K, boolean>> =>
  value === undefined ? {} : ({ [key]: value } as Record<K, boolean>);

/** The text of lib/events/iana/special-purpose.ts. */
export async function specialPurposeModule(): Promise<string> {
  const parts = await Promise.all(
    REGISTRIES.map(async (r) => {
      const blocks = registryBlocks(await readFile(join(root, r.file), 'utf8'), r.file);
      const lines = blocks.map((b) => `    ${JSON.stringify(b)},`).join('\n');
      return `/** ${r.registry} (Last Updated ${r.lastUpdated}), from ${r.file}. */
export const ${r.constant}: SpecialPurposeRegistry = {
  registry: '${r.registry}',
  lastUpdated: '${r.lastUpdated}',
  blocks: [
${lines}
  ],
};
`;
    }),
  );
  return `// Written by \`npm run iana\` (scripts/iana-registries.ts) from IANA's Special-Purpose Address
// Registries as checked in (lib/events/iana/*.csv). Do not edit.

/**
 * One block of a registry entry, its columns as IANA gives them. A flag is absent where the
 * registry says N/A or, for a terminated entry, nothing.
 */
export interface SpecialPurposeBlock {
  readonly prefix: string;
  readonly name: string;
  readonly rfc: string;
  readonly allocated: string;
  readonly terminated?: string;
  readonly source?: boolean;
  readonly destination?: boolean;
  readonly forwardable?: boolean;
  readonly globallyReachable?: boolean;
  readonly reservedByProtocol?: boolean;
}

export interface SpecialPurposeRegistry {
  readonly registry: string;
  /** The registry page's "Last Updated" date of the copy checked in. */
  readonly lastUpdated: string;
  readonly blocks: readonly SpecialPurposeBlock[];
}

${parts.join('\n')}`;
}
