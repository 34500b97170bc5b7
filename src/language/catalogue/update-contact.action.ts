// `- update-contact: { name?, email?, status? }` -> PATCH /v1/contacts/{id}
// (docs/CRM-API.md (assumptions)). Name and email may be mustache templates.
import type { ContactStatus } from '@crm-rules/crm-contract';
import { isPlainObject } from '../rules/format/problem-collector';
import { PROCEED, quoted, skip, type ActionDefinition } from './action-definition';

type ContactPatch = { name?: string; email?: string; status?: ContactStatus };
export type UpdateContactAction = { type: 'update-contact' } & ContactPatch;
export type ResolvedUpdateContact = { type: 'update-contact'; patch: ContactPatch };

const MEMBERS = ['name', 'email', 'status'] as const;

const patchOf = (a: UpdateContactAction): ContactPatch =>
  Object.fromEntries(MEMBERS.filter((m) => a[m] !== undefined).map((m) => [m, a[m]]));

export const updateContactAction: ActionDefinition<UpdateContactAction, ResolvedUpdateContact> = {
  type: 'update-contact',
  schema: {
    type: 'object',
    additionalProperties: false,
    minProperties: 1,
    description: "Change the contact's name, email or status. Skipped when it already has those values.",
    properties: {
      name: { type: 'string', minLength: 1, description: 'The new name; mustache values allowed.' },
      email: { type: 'string', minLength: 1, description: 'The new email; mustache values allowed.' },
      status: { enum: ['active', 'archived'], description: 'active or archived.' },
    },
  },
  repeat: 'state-checked',
  parse(value) {
    if (!isPlainObject(value)) return undefined;
    const patch = patchOf({ type: 'update-contact', ...value } as UpdateContactAction);
    return Object.keys(patch).length ? patch : undefined;
  },
  templates: (a) =>
    (['name', 'email'] as const).filter((m) => a[m] !== undefined).map((m) => ({ path: [m], text: a[m]! })),
  label: (a) => `update-contact ${quoted(patchOf(a))}`,
  // name, email and status are values, not directory names: nothing to check against a snapshot.
  names: () => [],
  effect: {
    writes: (a) => (a.status ? 'contact.status' : a.email ? 'contact.email' : 'contact.name'),
    emits: () => ['contact.updated'],
    falsifies: (a, leaf) =>
      !!a.status &&
      leaf.field === 'contact.status' &&
      !leaf.negated &&
      leaf.op === 'equal' &&
      leaf.value !== a.status,
    undoneBy: (a, other) =>
      other.type === 'update-contact' && a.status && other.status && other.status !== a.status
        ? { what: 'status', conflict: false }
        : undefined,
  },
  resolve: async (a, env) => {
    const patch = patchOf(a);
    if (patch.name !== undefined) patch.name = env.render(patch.name);
    if (patch.email !== undefined) patch.email = env.render(patch.email);
    return { type: 'update-contact', patch };
  },
  guard: (r, contact) =>
    MEMBERS.every((m) => r.patch[m] === undefined || r.patch[m] === contact[m])
      ? skip('no_change', `contact already has ${quoted(r.patch)}`)
      : PROCEED,
  apply: (r, contact) => ({ ...contact, ...r.patch }),
  execute: (r, env) => env.gateway.updateContact(env.contact.id, r.patch, env.opts),
};
