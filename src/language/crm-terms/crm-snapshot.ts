// The CRM's directory as a file committed beside the rules (rules/.crm-snapshot.json), so names in
// rules are checked offline. Only what a name check or a forecast needs is kept: no secrets, no
// contacts. Pure apart from readSnapshot/writeSnapshot.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export const SNAPSHOT_FILE = '.crm-snapshot.json';
export const SNAPSHOT_FORMAT = 'crm-rules/snapshot@1';

export interface CrmSnapshot {
  format: typeof SNAPSHOT_FORMAT;
  takenAt: string;
  /** The CRM's address; never the key. */
  source: string;
  tags: { id: string; name: string }[];
  stages: { id: string; name: string }[];
  channels: { id: string; name: string; status: string }[];
  /** role: absent in snapshots taken before assignment pools (a `role:` pool then matches nobody). */
  members: { id: string; name: string; email: string; status: string; role?: string }[];
  customFields: {
    id: string;
    fieldKey: string;
    name: string;
    type: string;
    status: string;
    options: { id: string; label: string }[];
  }[];
  /** `language` when the CRM lists it (names may repeat per language). */
  templates: { id: string; name: string; status: string; language?: string }[];
}

export function snapshotPath(rulesDir: string): string {
  return join(rulesDir, SNAPSHOT_FILE);
}

/** The snapshot, undefined when there is none, or an Error saying why the file is unusable. */
export async function readSnapshot(path: string): Promise<CrmSnapshot | undefined | Error> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    return err as Error;
  }
  try {
    const value = JSON.parse(text) as Partial<CrmSnapshot>;
    if (value.format !== SNAPSHOT_FORMAT)
      return new Error(`${path}: not a crm-rules snapshot (format ${JSON.stringify(value.format)})`);
    return value as CrmSnapshot;
  } catch (err) {
    return new Error(`${path}: ${(err as Error).message}`);
  }
}

export async function writeSnapshot(path: string, snapshot: CrmSnapshot): Promise<void> {
  await writeFile(path, `${JSON.stringify(snapshot, null, 2)}\n`);
}

/** An empty snapshot: what `init` commits until the first `snapshot` run. */
export function emptySnapshot(source = 'not pulled yet'): CrmSnapshot {
  return {
    format: SNAPSHOT_FORMAT,
    takenAt: new Date(0).toISOString(),
    source,
    tags: [],
    stages: [],
    channels: [],
    members: [],
    customFields: [],
    templates: [],
  };
}

/** A snapshot that was never pulled checks nothing. */
export function isPlaceholder(s: CrmSnapshot): boolean {
  return s.takenAt === new Date(0).toISOString();
}

/** The CRM's lists as read (more fields than kept); each list's own type where a field differs. */
export interface DirectoryLists {
  tags: readonly { id: string; name: string }[];
  stages: readonly { id: string; name: string }[];
  channels: readonly { id: string; name: string; status: string }[];
  members: readonly { id: string; name: string; email: string; status: string; role?: string }[];
  customFields: readonly (Omit<CrmSnapshot['customFields'][number], 'options'> & {
    options?: readonly { id: string; label: string }[] | null;
  })[];
  templates: readonly { id: string; name: string; status: string; language?: unknown }[];
}

/**
 * The snapshot of the CRM's lists, keeping only what name checks and forecasts read; one mapping
 * for `crm-rules snapshot` (a file) and the engine's live directory (a fetched commit's check).
 */
export function snapshotOf(lists: DirectoryLists, source: string, takenAt: Date): CrmSnapshot {
  const byName = <T extends { name: string }>(list: T[]) =>
    [...list].sort((a, b) => a.name.localeCompare(b.name));
  return {
    format: SNAPSHOT_FORMAT,
    takenAt: takenAt.toISOString(),
    source,
    tags: byName(lists.tags.map((t) => ({ id: t.id, name: t.name }))),
    stages: lists.stages.map((s) => ({ id: s.id, name: s.name })),
    channels: byName(lists.channels.map((c) => ({ id: c.id, name: c.name, status: c.status }))),
    members: byName(
      lists.members.map((m) => ({ id: m.id, name: m.name, email: m.email, status: m.status, role: m.role })),
    ),
    customFields: lists.customFields.map((f) => ({
      id: f.id,
      fieldKey: f.fieldKey,
      name: f.name,
      type: f.type,
      status: f.status,
      options: (f.options ?? []).map((o) => ({ id: o.id, label: o.label })),
    })),
    templates: byName(
      lists.templates.map((t) => ({
        id: t.id,
        name: t.name,
        status: t.status,
        ...(typeof t.language === 'string' ? { language: t.language } : {}),
      })),
    ),
  };
}
