// Each scope in words, once: the consent page shows them to the member who decides, and the
// OpenAPI document and the authorization server metadata describe the scopes with them.
import type { Scope } from './scopes.ts';

interface ScopeDescription {
  /** Short phrase (the spec's meaning column where it gives one). */
  summary: string;
  /** What granting it lets an application do, addressed to the member. */
  consent: string;
}

export const SCOPE_DESCRIPTIONS: Record<Scope, ScopeDescription> = {
  'entities:read': {
    summary: 'Read entities',
    consent: 'See products, components, features and customers, their fields and customer scores',
  },
  'write:entities': {
    summary: 'Create and modify entities',
    consent: 'Create products, components, features and customers, change their fields and move them in the hierarchy',
  },
  'entities:delete': {
    summary: 'Delete entities',
    consent: 'Delete products, components, features and customers, with everything beneath them',
  },
  'notes:read': {
    summary: 'Read notes',
    consent: 'Read customer feedback notes and see which features they are linked to',
  },
  'notes:write': {
    summary: 'Create and modify notes and their relationships',
    consent: 'Write customer feedback notes, link them to features with an importance and set their customer',
  },
  'notes:delete': {
    summary: 'Delete notes',
    consent: 'Delete customer feedback notes',
  },
  'webhooks:read': {
    summary: 'Read webhook subscriptions',
    consent: 'See the webhook subscriptions of the workspace and where they send events',
  },
  'webhooks:write': {
    summary: 'Create webhook subscriptions',
    consent: 'Subscribe an address of its choosing to signed events when customer scores and entities change',
  },
  'webhooks:delete': {
    summary: 'Delete webhook subscriptions',
    consent: 'Delete webhook subscriptions of the workspace',
  },
  'members:read': {
    summary: 'Read members',
    consent: 'See the members of the workspace, their roles and whether they are active',
  },
  'members:pii:read': {
    summary: "Read members' names and e-mail addresses",
    consent: 'See the names and e-mail addresses of the members of the workspace',
  },
  'users:pii:read': {
    summary: "Read customers' names and e-mail addresses",
    consent: 'See the names and e-mail addresses of the people who are customers (users) in the workspace',
  },
  'teams:read': {
    summary: 'Read teams',
    consent: 'See the teams of the workspace and which members belong to them',
  },
  'teams:write': {
    summary: 'Create and modify teams',
    consent: 'Create teams, rename them and add or remove their members',
  },
  'teams:delete': {
    summary: 'Delete teams',
    consent: 'Delete teams of the workspace (their members stay members of the workspace)',
  },
  'fields:write': {
    summary: 'Manage field values',
    consent: 'Create, rename and delete the tags and the options of select fields, on every record that uses them',
  },
};
