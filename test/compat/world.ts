// The data the compatibility checks run against, built through the typed Productboard clients:
// a shared seed workspace that no check changes, and fresh workspaces for checks that write.
import createClient from 'openapi-fetch';
import type { Scope } from '#lib/domain/scopes.ts';
import type { paths as ScorePaths } from './generated/customer-scores.ts';
import type { components as EntitySchemas, paths as EntityPaths } from './generated/entities.ts';
import type { paths as MemberPaths } from './generated/members.ts';
import type { paths as NotePaths } from './generated/notes.ts';
import type { paths as TeamPaths } from './generated/teams.ts';
import type { paths as WebhookPaths } from './generated/webhooks.ts';
import { Probe } from './probe.ts';
import { call, newWorkspace, type TestApp, type TestWorkspace } from '../support/app.ts';
import { contractFetch } from '../support/contract.ts';

/** Clients generated from Productboard's documents, pointed at our {base_url}; every response is also held to our own document. */
function productboardClients(baseUrl: string, token: string) {
  const options = { baseUrl, headers: { authorization: `Bearer ${token}` }, fetch: contractFetch() };
  return {
    entities: createClient<EntityPaths>(options),
    notes: createClient<NotePaths>(options),
    members: createClient<MemberPaths>(options),
    scores: createClient<ScorePaths>(options),
    teams: createClient<TeamPaths>(options),
    webhooks: createClient<WebhookPaths>(options),
  };
}

type Productboard = ReturnType<typeof productboardClients>;
export type EntityType = EntitySchemas['schemas']['EntityType'];
type EntityCreateFields = EntitySchemas['schemas']['EntityCreateOrUpdateFields'];
export type EntitySearch = EntitySchemas['schemas']['EntitySearch'];

export class World {
  /** Ids and e-mails of this world's data by readable name (failure lines show the names). */
  readonly names = new Map<string, string>();
  readonly pb: Productboard;

  constructor(
    readonly app: TestApp,
    readonly workspace: TestWorkspace,
  ) {
    this.pb = productboardClients(app.baseUrl, workspace.token);
    this.names.set(workspace.admin.id, 'admin');
    this.names.set(workspace.admin.email, 'admin e-mail');
  }

  probe(): Probe {
    return new Probe(this.app.baseUrl, this.names);
  }

  /** Productboard clients acting with another token of this workspace. */
  as(token: string): Productboard {
    return productboardClients(this.app.baseUrl, token);
  }

  /** A plain call of one of our extensions under {base_url} (`path` without /v2), as this workspace's admin (see Probe.extension). */
  ours(method: 'GET' | 'PUT' | 'POST' | 'DELETE', path: string, body?: unknown) {
    return call(this.app, method, `/v2${path}`, { token: this.workspace.token, ...(body === undefined ? {} : { body }) });
  }

  /** A member of this workspace and a token (all scopes of its role unless given). */
  async member(name: string, options: { role?: 'admin' | 'maker' | 'viewer'; scopes?: string[] } = {}) {
    const m = await this.workspace.member({ role: options.role ?? 'maker', ...(options.scopes ? { scopes: options.scopes as Scope[] } : {}) });
    this.names.set(m.member.id, name);
    this.names.set(m.member.email, `${name} e-mail`);
    return { id: m.member.id, email: m.member.email, token: m.token, pb: this.as(m.token) };
  }

  /** Creates an entity through Productboard's createEntity (a setup step of `probe`). */
  async entity(probe: Probe, type: EntityType, name: string, options: { parent?: string; fields?: EntityCreateFields } = {}): Promise<string> {
    const created = await probe.setup(
      'createEntity',
      201,
      this.pb.entities.POST('/entities', {
        body: {
          data: {
            type,
            fields: { name, ...options.fields },
            ...(options.parent ? { relationships: [{ type: 'parent', target: { id: options.parent } }] } : {}),
          },
        },
      }),
    );
    const id = created.data!.id;
    this.names.set(id, name);
    return id;
  }

  /** The workspace's tag values by name, read through listEntityFieldValues (each id named `tag <name>`). */
  async tagIds(probe: Probe): Promise<Map<string, string>> {
    const list = await probe.setup('listEntityFieldValues', 200, this.pb.entities.GET('/entities/fields/{id}/values', { params: { path: { id: 'tags' } } }));
    const out = new Map<string, string>();
    for (const v of list.data) {
      const name = String((v.fields as { name?: unknown }).name);
      out.set(name, v.id);
      this.names.set(v.id, `tag ${name}`);
    }
    return out;
  }

  /** Creates a team through Productboard's createTeam (a setup step of `probe`). */
  async team(probe: Probe, name: string, handle: string): Promise<string> {
    const created = await probe.setup('createTeam', 201, this.pb.teams.POST('/teams', { body: { data: { fields: { name, handle } } } }));
    const id = created.data.id;
    this.names.set(id, name);
    return id;
  }

  /** Creates a text note through Productboard's createNote, linked to `links` (default importance). */
  async note(
    probe: Probe,
    name: string,
    options: { customer?: { id: string; type: 'user' | 'company' }; links?: string[]; owner?: string } = {},
  ): Promise<string> {
    const relationships = [
      ...(options.customer ? [{ type: 'customer' as const, target: options.customer }] : []),
      ...(options.links ?? []).map((id) => ({ type: 'link' as const, target: { id, type: 'link' as const } })),
    ];
    const created = await probe.setup(
      'createNote',
      201,
      this.pb.notes.POST('/notes', {
        body: {
          data: {
            type: 'textNote',
            fields: { name, ...(options.owner ? { owner: { email: options.owner } } : {}) },
            ...(relationships.length ? { relationships } : {}),
          },
        },
      }),
    );
    const id = created.data.id;
    this.names.set(id, name);
    return id;
  }
}

export async function freshWorld(app: TestApp): Promise<World> {
  return new World(app, await newWorkspace('Compatibility'));
}

/**
 * The shared seed (read-only for the checks):
 *
 *   Payments (product)                      Platform (product)
 *   ├─ Checkout (component)                 └─ Infra (component)
 *   │  ├─ Apple Pay (feature: admin, Planned, tags mobile, team Payments team)   └─ Legacy billing (feature, archived)
 *   │  │  └─ Apple Pay on watch (subfeature)
 *   │  └─ Google Pay (feature: maker, In progress)
 *   └─ Wallets (component)
 *      └─ apple pay refunds (feature: Planned)
 *   Acme (company) └─ Ada (user, ada@acme.test)
 *
 * Teams: "Payments team" (handle payments, member maker) holds Apple Pay and Google Pay; "Idle team"
 * (handle idle) holds nothing.
 *
 * Notes: "Wants Apple Pay" (customer Ada, link Apple Pay, owner admin) and "Google Pay please"
 * (anonymous, link Google Pay, owner maker), created in that order.
 */
export interface Seed {
  world: World;
  maker: Awaited<ReturnType<World['member']>>;
  e: Record<
    | 'payments'
    | 'platform'
    | 'checkout'
    | 'wallets'
    | 'infra'
    | 'applePay'
    | 'applePayWatch'
    | 'googlePay'
    | 'applePayRefunds'
    | 'legacyBilling'
    | 'acme'
    | 'ada',
    string
  >;
  n: { wantsApplePay: string; googlePayPlease: string };
  teams: { payments: string; idle: string };
  /** createdAt of each seeded entity and note, by id (read back through the API). */
  createdAt: Map<string, string>;
}

export const PLANNED = { id: '5b1f0c3a-0c52-4a5e-9e53-0f3b7f0d0a03', name: 'Planned' };

export async function buildSeed(app: TestApp): Promise<Seed> {
  const world = await freshWorld(app);
  const probe = world.probe();
  try {
    const maker = await world.member('maker');
    const admin = world.workspace.admin.email;
    const teams = { payments: await world.team(probe, 'Payments team', 'payments'), idle: await world.team(probe, 'Idle team', 'idle') };
    await probe.setup(
      'updateTeam',
      200,
      world.pb.teams.PATCH('/teams/{id}', {
        params: { path: { id: teams.payments } },
        body: { data: { patch: [{ op: 'addItems', path: 'members', value: [{ id: maker.id }] }] } },
      }),
    );
    const payments = await world.entity(probe, 'product', 'Payments');
    const platform = await world.entity(probe, 'product', 'Platform');
    const checkout = await world.entity(probe, 'component', 'Checkout', { parent: payments });
    const wallets = await world.entity(probe, 'component', 'Wallets', { parent: payments });
    const infra = await world.entity(probe, 'component', 'Infra', { parent: platform });
    const applePay = await world.entity(probe, 'feature', 'Apple Pay', {
      parent: checkout,
      fields: { owner: { email: admin }, status: { name: PLANNED.name }, tags: [{ name: 'mobile' }], teams: [{ id: teams.payments }] },
    });
    const applePayWatch = await world.entity(probe, 'subfeature', 'Apple Pay on watch', { parent: applePay });
    const googlePay = await world.entity(probe, 'feature', 'Google Pay', {
      parent: checkout,
      fields: { owner: { email: maker.email }, status: { name: 'In progress' }, teams: [{ name: 'PAYMENTS TEAM' }] },
    });
    const applePayRefunds = await world.entity(probe, 'feature', 'apple pay refunds', { parent: wallets, fields: { status: { name: PLANNED.name } } });
    const legacyBilling = await world.entity(probe, 'feature', 'Legacy billing', { parent: infra, fields: { archived: true } });
    const acme = await world.entity(probe, 'company', 'Acme', { fields: { domain: 'acme.test' } });
    const ada = await world.entity(probe, 'user', 'Ada', { parent: acme, fields: { email: 'ada@acme.test' } });
    const wantsApplePay = await world.note(probe, 'Wants Apple Pay', { customer: { id: ada, type: 'user' }, links: [applePay], owner: admin });
    const googlePayPlease = await world.note(probe, 'Google Pay please', { links: [googlePay], owner: maker.email });
    const e = { payments, platform, checkout, wallets, infra, applePay, applePayWatch, googlePay, applePayRefunds, legacyBilling, acme, ada };
    const createdAt = new Map<string, string>();
    for (const id of Object.values(e)) {
      const got = await probe.setup('getEntity', 200, world.pb.entities.GET('/entities/{id}', { params: { path: { id } } }));
      createdAt.set(id, got.data.createdAt!);
    }
    for (const id of [wantsApplePay, googlePayPlease]) {
      const got = await probe.setup('getNote', 200, world.pb.notes.GET('/notes/{id}', { params: { path: { id } } }));
      createdAt.set(id, got.data!.createdAt);
    }
    return { world, maker, e, n: { wantsApplePay, googlePayPlease }, teams, createdAt };
  } catch (err) {
    throw new Error(`The compatibility seed could not be built: ${probe.failures.join('; ') || (err as Error).message}`);
  }
}
