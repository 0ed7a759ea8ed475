// Real crashes: the local gateway and its workers (the sweeper of pending work included) run as this
// test's own child process (local/serve.ts) on a table of their own in the test's DynamoDB Local.
// Concurrent clients send mixed writes over HTTP — creates, notes with many links (stepwise),
// re-rates, customer changes, moves, subtree deletes, customer deletes, note deletes — and the child
// is killed by pid with SIGKILL at random points, then started again; no request is ever repeated.
// Once the writes stop, the restarted child's sweeper must finish what the kills interrupted within
// the stated bound: `score verify` 0 mismatches and no pending work, no entity readable under a
// deleted ancestor, nothing of a deleted subtree left. SIGKILL_SEED replays a run (the seed is
// printed); SIGKILL_KILLS and SIGKILL_RUNS choose how many kills and how many runs.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as keys from '#lib/store/keys.ts';
import { queryAll } from '#lib/store/query.ts';
import { verifyWorkspace } from '#lib/store/verify.ts';
import { workOf } from '#lib/store/work.ts';
import { ensureTable, freePort } from '../../local/dynamodb-local.ts';
import { newWorkspace } from '../support/app.ts';

// This file's processes (the test and its child) use a table of their own: the child's sweeper takes
// every due item of its table, and other test files inspect pending work they left on purpose.
const TABLE = `pm-api-sigkill-${process.pid}`;
process.env.TABLE_NAME = TABLE;

const KILLS = Number(process.env.SIGKILL_KILLS ?? 20);
const RUNS = Number(process.env.SIGKILL_RUNS ?? 1);
const CLIENTS = 6;
/** The child's request budget: a request killed mid-way holds its pending work at most this + 2 s. */
const REQUEST_BUDGET_MS = 5_000;
/** The child's sweeper: a run every half second, 3 s per item per run. */
const SWEEP = { interval: 500, chunk: 3_000 };
/**
 * The stated bound: from the last restart, the interrupted work is finished (verify: 0 mismatches,
 * nothing pending) within a killed request's lease (budget + 2 s) plus a killed sweep's (chunk + 2 s)
 * plus the work itself; 60 s leaves room for a loaded machine.
 */
const BOUND_MS = 60_000;

/** mulberry32: a small seeded generator, so a run is replayed by its seed. */
function random(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (n: number) => Math.floor(next() * n),
    pick: <T>(xs: readonly T[]): T | undefined => (xs.length ? xs[Math.floor(next() * xs.length)] : undefined),
  };
}

/** The child process: the gateway and the workers, on a fixed port so clients keep their address across restarts. */
class Child {
  process: ChildProcess | undefined;
  /** Resolves while the child listens; from a kill until the restarted child listens, it waits (clients send nothing to a dead port). */
  ready: Promise<void> = Promise.resolve();
  private reopen: (() => void) | undefined;
  starts = 0;

  constructor(private readonly env: NodeJS.ProcessEnv) {}

  start(): Promise<void> {
    this.starts++;
    const child = spawn(process.execPath, ['--import', 'tsx', 'local/serve.ts'], { env: this.env, stdio: ['ignore', 'pipe', 'inherit'] });
    this.process = child;
    const listening = new Promise<void>((resolve, reject) => {
      const lines = createInterface({ input: child.stdout });
      lines.on('line', (line) => {
        if (line.startsWith('listening ')) resolve();
      });
      child.once('exit', (code, signal) => reject(new Error(`local/serve.ts exited (${code ?? signal}) before it listened`)));
    });
    void listening.then(
      () => this.reopen?.(),
      () => undefined,
    );
    if (!this.reopen) this.ready = listening;
    return listening;
  }

  /** SIGKILL by pid: no handler runs, nothing is flushed, nothing is released. */
  async kill(): Promise<void> {
    const child = this.process!;
    if (child.exitCode !== null || child.signalCode !== null) return;
    this.ready = new Promise<void>((resolve) => (this.reopen = resolve));
    const exited = new Promise((r) => child.once('exit', r));
    process.kill(child.pid!, 'SIGKILL');
    await exited;
  }
}

interface World {
  products: string[];
  containers: string[];
  features: string[];
  companies: string[];
  users: string[];
  notes: string[];
  /** Every entity id the clients created (for the read-back at the end). */
  entities: string[];
}

const IMPORTANCES = ['critical', 'important', 'nice to have', 'unknown', 'not important'] as const;

describe('SIGKILL of the gateway and its workers during concurrent mixed writes', () => {
  let child: Child;
  let baseUrl: string;
  let endpoint: string;

  beforeAll(async () => {
    endpoint = process.env.DYNAMODB_ENDPOINT!;
    await ensureTable(endpoint, TABLE);
    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    child = new Child({
      ...process.env,
      TABLE_NAME: TABLE,
      PORT: String(port),
      PUBLIC_APP_URL: baseUrl,
      PUBLIC_BASE_URL: `${baseUrl}/v2`,
      REQUEST_TIMEOUT_MS: String(REQUEST_BUDGET_MS),
      SWEEP_INTERVAL_MS: String(SWEEP.interval),
      SWEEP_CHUNK_MS: String(SWEEP.chunk),
      LOG_LEVEL: 'silent',
    });
    await child.start();
  }, 120_000);

  afterAll(async () => {
    await child?.kill();
  });

  for (let run = 0; run < RUNS; run++) {
    it(
      `run ${run + 1}: ${KILLS} kills at random points; verify reaches 0 mismatches and nothing pending within ${BOUND_MS / 1000} s, no entity readable under a deleted ancestor`,
      async () => {
        const seed = process.env.SIGKILL_SEED !== undefined ? Number(process.env.SIGKILL_SEED) + run : Math.floor(Math.random() * 2 ** 31);
        console.log(`sigkill: seed ${seed} (replay with SIGKILL_SEED=${seed})`);
        const rnd = random(seed);
        const ws = await newWorkspace();
        const world: World = { products: [], containers: [], features: [], companies: [], users: [], notes: [], entities: [] };
        const stats = { sent: 0, answered: 0, lost: 0, byStatus: new Map<number, number>(), serverErrors: [] as string[] };

        const send = async (method: string, path: string, body?: unknown): Promise<{ status: number; json: any } | undefined> => {
          await child.ready;
          stats.sent++;
          try {
            const res = await fetch(`${baseUrl}/v2${path}`, {
              method,
              headers: { authorization: `Bearer ${ws.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
              ...(body === undefined ? {} : { body: JSON.stringify(body) }),
            });
            const text = await res.text();
            stats.answered++;
            stats.byStatus.set(res.status, (stats.byStatus.get(res.status) ?? 0) + 1);
            if (res.status >= 500) stats.serverErrors.push(`${method} ${path} → ${res.status} ${text.slice(0, 300)}`);
            return { status: res.status, json: text ? JSON.parse(text) : undefined };
          } catch {
            // Killed while in flight: the outcome is unknown, and the request is never sent again.
            stats.lost++;
            return undefined;
          }
        };
        const created = (res: { status: number; json: any } | undefined) => (res && res.status === 201 ? (res.json.data.id as string) : undefined);
        const entity = async (type: string, parentId?: string, fields: Record<string, unknown> = {}) =>
          created(
            await send('POST', '/entities', {
              data: {
                type,
                fields: { name: `${type} ${rnd.int(1e6)}`, ...fields },
                ...(parentId ? { relationships: [{ type: 'parent', target: { id: parentId } }] } : {}),
              },
            }),
          );
        const hierarchy = () => [...world.containers, ...world.features];
        const imp = () => IMPORTANCES[rnd.int(IMPORTANCES.length)]!;

        /** One random write, chosen and aimed from what the clients know (ids they created, some deleted meanwhile). */
        const write = async () => {
          const r = rnd.next();
          if (r < 0.04 || world.products.length === 0) {
            const id = await entity('product');
            if (id) {
              world.products.push(id);
              world.containers.push(id);
              world.entities.push(id);
            }
          } else if (r < 0.12) {
            const id = await entity('component', rnd.pick(world.containers));
            if (id) {
              world.containers.push(id);
              world.entities.push(id);
            }
          } else if (r < 0.24) {
            const parent = rnd.next() < 0.2 ? rnd.pick(world.features) : rnd.pick(world.containers);
            const id = await entity(parent && world.features.includes(parent) ? 'subfeature' : 'feature', parent);
            if (id) {
              world.features.push(id);
              world.entities.push(id);
            }
          } else if (r < 0.29) {
            const company = rnd.next() < 0.4 || world.companies.length === 0;
            const id = company ? await entity('company') : await entity('user', rnd.pick(world.companies));
            if (id) {
              (company ? world.companies : world.users).push(id);
              world.entities.push(id);
            }
          } else if (r < 0.5) {
            // A note: sometimes with a customer; usually a few links, sometimes 40 (more than one transaction: stepwise).
            const many = rnd.next() < 0.12;
            const targets = [
              ...new Set(Array.from({ length: many ? 40 : 1 + rnd.int(3) }, () => rnd.pick(hierarchy())).filter((t): t is string => t !== undefined)),
            ];
            const customer = rnd.next() < 0.6 ? rnd.pick([...world.companies, ...world.users]) : undefined;
            const relationships = [
              ...(customer ? [{ type: 'customer', target: { id: customer } }] : []),
              ...targets.map((id) => ({ type: 'link', target: { id }, importance: imp() })),
            ];
            const id = created(await send('POST', '/notes', { data: { type: 'textNote', fields: { name: 'Feedback' }, relationships } }));
            if (id) world.notes.push(id);
          } else if (r < 0.64) {
            const note = rnd.pick(world.notes);
            const target = rnd.pick(hierarchy());
            if (note && target) await send('PUT', `/notes/${note}/relationships/link/${target}`, { data: { importance: imp() } });
          } else if (r < 0.73) {
            const note = rnd.pick(world.notes);
            const customer = rnd.pick([...world.companies, ...world.users]);
            if (note && customer) await send('PUT', `/notes/${note}/relationships/customer`, { data: { target: { id: customer } } });
          } else if (r < 0.82) {
            // A move: a feature to another product or component, or a component to a product.
            const feature = rnd.next() < 0.7;
            const id = feature ? rnd.pick(world.features) : rnd.pick(world.containers.filter((c) => !world.products.includes(c)));
            const parent = feature ? rnd.pick(world.containers) : rnd.pick(world.products);
            if (id && parent) await send('PUT', `/entities/${id}/relationships/parent`, { data: { target: { id: parent } } });
          } else if (r < 0.88) {
            // A subtree delete: a component (often with features and notes below), now and then a product.
            const id = rnd.next() < 0.25 ? rnd.pick(world.products) : rnd.pick(world.containers);
            if (id) await send('DELETE', `/entities/${id}`);
          } else if (r < 0.93) {
            const id = rnd.pick([...world.companies, ...world.users]);
            if (id) await send('DELETE', `/entities/${id}`);
          } else {
            const id = rnd.pick(world.notes);
            if (id) await send('DELETE', `/notes/${id}`);
          }
        };

        // A starting world, so that the first kills already interrupt deletes of trees with notes.
        for (let i = 0; i < 3; i++) {
          const p = await entity('product');
          if (!p) continue;
          world.products.push(p);
          world.containers.push(p);
          world.entities.push(p);
          for (let j = 0; j < 3; j++) {
            const comp = await entity('component', p);
            if (!comp) continue;
            world.containers.push(comp);
            world.entities.push(comp);
            for (let k = 0; k < 10; k++) {
              const f = await entity('feature', comp);
              if (f) {
                world.features.push(f);
                world.entities.push(f);
              }
            }
          }
        }
        for (let i = 0; i < 4; i++) {
          const c = await entity('company');
          if (c) {
            world.companies.push(c);
            world.entities.push(c);
          }
        }

        let writing = true;
        const clients = Array.from({ length: CLIENTS }, async () => {
          while (writing) await write();
        });
        // Each kill comes after a random number of answers since the last start (so the child is warm and
        // busy), then a random few milliseconds more, with the clients' requests in flight.
        const killedAt: number[] = [];
        for (let k = 0; k < KILLS; k++) {
          const answers = stats.answered + 3 + rnd.int(20);
          while (stats.answered < answers) await new Promise((r) => setTimeout(r, 5));
          await new Promise((r) => setTimeout(r, rnd.int(200)));
          killedAt.push(stats.sent);
          await child.kill();
          await child.start();
        }
        writing = false;
        await Promise.all(clients);
        const lastStart = Date.now();
        const statuses = Object.fromEntries([...stats.byStatus].sort(([a], [b]) => a - b));
        console.log(
          `sigkill: seed ${seed}: ${stats.sent} requests (${stats.lost} lost to kills, statuses ${JSON.stringify(statuses)}), kills after request ${killedAt.join(', ')}`,
        );
        expect(child.starts).toBeGreaterThanOrEqual(KILLS + 1);
        expect(stats.lost).toBeGreaterThan(0);
        // No 5xx from a running child: a kill loses a request, it never answers for it.
        expect(stats.serverErrors).toEqual([]);

        // The restarted child's sweeper finishes what the kills interrupted, within the bound.
        let report = await verifyWorkspace(ws.workspaceId, false);
        while ((report.pending > 0 || report.mismatches > 0) && Date.now() - lastStart < BOUND_MS) {
          await new Promise((r) => setTimeout(r, 500));
          report = await verifyWorkspace(ws.workspaceId, false);
        }
        const tookMs = Date.now() - lastStart;
        console.log(`sigkill: seed ${seed}: verify ${JSON.stringify(report)} ${tookMs} ms after the last restart (bound ${BOUND_MS} ms)`);
        // What is still pending says why (its failures and last error), should the bound be missed.
        const left = report.pending ? (await workOf(ws.workspaceId)).map((w) => ({ ...w, dueInMs: w.due - Date.now() })) : [];
        expect(report, `seed ${seed}; pending: ${JSON.stringify(left)}`).toMatchObject({ mismatches: 0, pending: 0 });

        // No entity readable under a deleted ancestor: in the table, every unmarked entity's ancestors exist and are unmarked ...
        const items = await queryAll({
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': keys.partition(ws.workspaceId) },
          ConsistentRead: true,
        });
        const entities = new Map(items.filter((it) => it.kind === 'entity').map((it) => [it.id as string, it]));
        const orphans = [...entities.values()].filter((e) => {
          if (e.deleting) return false;
          for (let p = e.parentId as string | undefined; p !== undefined; p = entities.get(p)?.parentId as string | undefined) {
            const parent = entities.get(p);
            if (!parent || parent.deleting) return true;
          }
          return false;
        });
        expect(
          orphans.map((e) => e.id),
          `seed ${seed}`,
        ).toEqual([]);
        // ... nothing marked is left, nor any tombstone or pending work ...
        expect(
          items.filter((it) => it.deleting || it.kind === 'tombstones' || it.kind === 'work').map((it) => it.sk),
          `seed ${seed}`,
        ).toEqual([]);
        // ... and through the API, each entity the clients created either answers with a parent that answers, or is 404.
        for (const id of world.entities) {
          const res = await send('GET', `/entities/${id}`);
          expect([200, 404], `GET ${id}`).toContain(res!.status);
          const parent =
            res!.status === 200
              ? (res!.json.data.relationships.data as Array<{ type: string; target: { id: string } }>).find((x) => x.type === 'parent')
              : undefined;
          if (parent) expect((await send('GET', `/entities/${parent.target.id}`))!.status, `parent of ${id}`).toBe(200);
        }
      },
      15 * 60_000,
    );
  }
});
