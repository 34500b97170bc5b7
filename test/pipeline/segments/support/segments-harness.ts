// The real engine (startHarness: own database, Redis prefix, embedded sandbox over HTTP) with
// a handle on its database, for the segments end-to-end tests.
import { DataSource } from 'typeorm';
import type { Contact } from '@crm-rules/crm-contract';
import { api } from '../../../support/http';
import {
  ADMIN_TOKEN,
  crm,
  eventually,
  startHarness,
  type Harness,
  type HarnessOptions,
} from '../../../support/engine-harness';

export interface SegmentsHarness extends Harness {
  db: DataSource;
}

export async function startSegmentsHarness(options: HarnessOptions = {}): Promise<SegmentsHarness> {
  const h = await startHarness(options);
  return { ...h, db: h.app.get(DataSource) };
}

export const admin = (h: SegmentsHarness, method: string, path: string) =>
  api(h.url, method, path, undefined, { 'x-admin-token': ADMIN_TOKEN });
/** The CRM's public API with the demo key. */
export const sandbox = crm;

/** The CRM's current contact, read on the control surface (not counted as an API call). */
export async function crmContact(h: SegmentsHarness, id: string): Promise<Contact> {
  return (await api(h.sandboxUrl, 'GET', `/_sandbox/state/contacts/${id}`)).body as Contact;
}

/** Waits until the mirror holds the CRM's current version of a contact (contact.updated webhook, event pipeline). */
export async function mirrorCatchesUp(h: SegmentsHarness, id: string): Promise<void> {
  const contact = await crmContact(h, id);
  const tags = contact.tags.map((t) => t.id).sort();
  await eventually(async () => {
    const [row] = await h.db.query(`SELECT tag_ids, stage_id, status FROM contact_mirror WHERE id = $1`, [
      id,
    ]);
    return (
      row &&
      JSON.stringify([...row.tag_ids].sort()) === JSON.stringify(tags) &&
      row.stage_id === contact.stageId &&
      row.status === contact.status
    );
  }, 15000).catch((err: Error) => {
    throw new Error(
      `the mirror did not catch up with contact ${id} (are contact.* webhooks subscribed?): ${err.message}`,
    );
  });
}

/** Write calls (anything but GET) the sandbox counted since the counters were last cleared. */
export async function writeCalls(h: SegmentsHarness): Promise<Record<string, number>> {
  const counters: Record<string, number> = (await api(h.sandboxUrl, 'GET', '/_sandbox/counters')).body;
  return Object.fromEntries(Object.entries(counters).filter(([route]) => !route.startsWith('GET ')));
}
