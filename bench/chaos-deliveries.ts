// How the chaos suite feeds the engine: contacts created in the CRM with a key of their own (its
// own rate limit), then one signed contact.updated delivery each, retried the way the CRM retries.
import { randomUUID } from 'node:crypto';
import { signatureHeader } from '../src/language/net/verify-signature';
import { sleep } from './chaos-services';

let phoneSeq = 0;
export async function createContacts(
  sandboxUrl: string,
  n: number,
  extra: Record<string, unknown> = {},
): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  // Another key of the organization: the sandbox limits each key apart, so this does not eat the engine's.
  for (let i = 0; i < n; i++) {
    const phone = `4915${String(process.pid % 1000).padStart(3, '0')}${String(++phoneSeq).padStart(6, '0')}`;
    for (;;) {
      const res = await fetch(`${sandboxUrl}/v1/contacts`, {
        method: 'POST',
        headers: { authorization: 'Bearer sk_demo_contacts', 'content-type': 'application/json' },
        body: JSON.stringify({ name: `Chaos ${phoneSeq}`, phone, ...extra }),
      });
      if (res.status === 201) {
        out.push((await res.json()) as Record<string, unknown>);
        break;
      }
      if (res.status !== 429) throw new Error(`contact not created: ${res.status} ${await res.text()}`);
      await sleep(Number(res.headers.get('retry-after') ?? 1) * 1000);
    }
  }
  return out;
}

/** Delivers like the CRM does: signed, retried with backoff on anything but 2xx (7 attempts). */
export async function deliverAll(
  apiUrl: string,
  secret: string,
  items: { contact: Record<string, unknown>; copies: number }[],
) {
  let accepted = 0;
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++];
      const body = JSON.stringify({
        id: `evt_${randomUUID()}`,
        type: 'contact.updated',
        createdAt: new Date().toISOString(),
        data: item.contact,
      });
      const results = await Promise.all(
        Array.from({ length: item.copies }, () => deliver(apiUrl, secret, body)),
      );
      if (results.some(Boolean)) accepted++;
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  return accepted;
}

async function deliver(apiUrl: string, secret: string, body: string): Promise<boolean> {
  for (let attempt = 0; attempt < 7; attempt++) {
    try {
      const res = await fetch(`${apiUrl}/webhooks/crm`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-service-signature': signatureHeader(secret, body) },
        body,
        signal: AbortSignal.timeout(10_000),
      });
      await res.text();
      if (res.ok) return true;
    } catch {
      // connection refused / timeout: retried like any failure
    }
    await sleep(250 * 2 ** attempt);
  }
  return false;
}
