// Fixture → SandboxState: organizations, keys and the directory (members, stages, tags,
// custom fields, channels). Contacts and activity are built by fixture-activity.ts.
import { expandScopes } from './api-key-auth';
import { buildActivity } from './fixture-activity';
import { Problems, resolveRef } from './fixture-loader';
import type { FixtureOrg, SandboxFixture } from './fixture-types';
import { emptyOrg, type OrgState, type SandboxState } from './sandbox-state';

export function slugKey(name: string): string {
  return (
    name
      .trim()
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '_')
      .replace(/^_+|_+$/g, '') || 'field'
  );
}

function buildDirectory(org: OrgState, f: FixtureOrg, path: string, p: Problems, now: Date): void {
  (f.members ?? []).forEach((m, i) => {
    const at = `${path}.members[${i}]`;
    if (!p.required(`${at}.name`, m.name, 'string') || !p.required(`${at}.email`, m.email, 'string')) return;
    const id = p.id(at, m.id, org.id, 'member', m.email);
    org.members.set(id, {
      id,
      name: m.name,
      email: m.email,
      avatar: m.avatar ?? null,
      phoneNumber: m.phoneNumber ?? null,
      role: m.role ?? 'agent',
      jobTitle: m.jobTitle ?? null,
      status: m.status ?? 'active',
      createdAt: p.date(`${at}.createdAt`, m.createdAt, now, new Date(now.getTime() - (100 - i) * 86400e3)),
    });
  });
  (f.stages ?? []).forEach((s, i) => {
    const at = `${path}.stages[${i}]`;
    if (!p.required(`${at}.name`, s.name, 'string')) return;
    const id = p.id(at, s.id, org.id, 'stage', s.name);
    const createdAt = now.toISOString();
    org.stages.set(id, {
      id,
      name: s.name,
      description: s.description ?? null,
      color: s.color ?? null,
      sortOrder: i,
      badge: s.badge ?? null,
      isInProgress: s.isInProgress ?? false,
      createdAt,
      updatedAt: createdAt,
    });
  });
  (f.tags ?? []).forEach((t, i) => {
    const at = `${path}.tags[${i}]`;
    if (!p.required(`${at}.name`, t.name, 'string')) return;
    const id = p.id(at, t.id, org.id, 'tag', t.name);
    org.tags.set(id, { id, name: t.name, color: t.color ?? '#9e9e9e', createdAt: now.toISOString() });
  });
  (f.customFields ?? []).forEach((cf, i) => {
    const at = `${path}.customFields[${i}]`;
    if (!p.required(`${at}.name`, cf.name, 'string')) return;
    if (!['TEXT', 'SINGLE_SELECT', 'MULTI_SELECT', 'URL'].includes(cf.type))
      p.add(`${at}.type`, 'must be TEXT, SINGLE_SELECT, MULTI_SELECT or URL');
    const fieldKey = cf.fieldKey ?? slugKey(cf.name);
    const id = p.id(at, cf.id, org.id, 'customField', fieldKey);
    const options = (cf.options ?? []).map((o, j) => ({
      id: p.id(`${at}.options[${j}]`, o.id, id, 'option', o.label),
      label: o.label,
      color: o.color ?? '#9e9e9e',
      sortOrder: j,
    }));
    const createdAt = now.toISOString();
    org.customFields.set(id, {
      id,
      name: cf.name,
      fieldKey,
      type: cf.type,
      description: cf.description ?? null,
      status: cf.status ?? 'ACTIVE',
      options,
      createdAt,
      updatedAt: createdAt,
    });
  });
  (f.channels ?? []).forEach((c, i) => {
    const at = `${path}.channels[${i}]`;
    if (
      !p.required(`${at}.name`, c.name, 'string') ||
      !p.required(`${at}.platformType`, c.platformType, 'string')
    )
      return;
    if (c.status !== 'connected' && c.status !== 'disconnected')
      p.add(`${at}.status`, 'must be connected or disconnected');
    const id = p.id(at, c.id, org.id, 'channel', c.name);
    org.channels.set(id, { id, name: c.name, platformType: c.platformType, status: c.status });
  });
}

function buildKeys(state: SandboxState, org: OrgState, f: FixtureOrg, path: string, p: Problems): void {
  if (!p.required(`${path}.apiKeys`, f.apiKeys, 'array')) return;
  f.apiKeys.forEach((k, i) => {
    const at = `${path}.apiKeys[${i}]`;
    if (!p.required(`${at}.key`, k.key, 'string') || !p.required(`${at}.scopes`, k.scopes, 'array')) return;
    if (state.apiKeys.has(k.key)) return p.add(`${at}.key`, 'is used twice in the fixture');
    let scopes = new Set<string>();
    try {
      scopes = expandScopes(k.scopes);
    } catch (err) {
      p.add(`${at}.scopes`, (err as Error).message);
    }
    const member = k.member ? resolveRef(org.members.values(), k.member, ['email', 'name']) : undefined;
    if (k.member && !member) p.add(`${at}.member`, `no member '${k.member}'`);
    state.apiKeys.set(k.key, {
      key: k.key,
      name: k.name ?? `key ${i + 1}`,
      orgId: org.id,
      scopes,
      revoked: k.revoked ?? false,
      memberId: member?.id ?? null,
    });
  });
}

/** Builds the whole state; throws FixtureError listing every problem. `now` anchors relative dates. */
export function buildState(fixture: SandboxFixture, now: Date): SandboxState {
  const p = new Problems();
  const state: SandboxState = { orgs: new Map(), apiKeys: new Map() };
  if (
    !fixture ||
    typeof fixture !== 'object' ||
    !p.required('organizations', fixture.organizations, 'array')
  ) {
    p.throwIfAny();
    return state;
  }
  fixture.organizations.forEach((f, i) => {
    const path = `organizations[${i}]`;
    if (!p.required(`${path}.name`, f?.name, 'string')) return;
    const org = emptyOrg(p.id(path, f.id, 'org', f.name), f.name);
    if (state.orgs.has(org.id)) return p.add(`${path}.id`, 'is used by two organizations');
    state.orgs.set(org.id, org);
    buildDirectory(org, f, path, p, now);
    buildKeys(state, org, f, path, p);
    buildActivity(org, f, path, p, now);
    for (const [phone, id] of Object.entries(f.contactIdsByPhone ?? {}))
      org.reservedContactIds.set(phone, p.id(`${path}.contactIdsByPhone.${phone}`, id));
  });
  p.throwIfAny();
  return state;
}
