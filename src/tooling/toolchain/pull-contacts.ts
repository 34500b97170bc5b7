// `crm-rules snapshot --contacts`: every contact, page by page through the budget at bulk
// priority, into a contacts file. Progress goes to a listener (the CLI draws a bar with an ETA).
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import type { CliCrm } from './cli-crm';
import { contactLineFromCrm, contactsHeader } from './contacts-file';

const PAGE = 100;

export interface ContactsProgress {
  done: number;
  total: number;
}

export async function pullContacts(
  crm: CliCrm,
  path: string,
  onProgress: (p: ContactsProgress) => void = () => undefined,
  now = new Date(),
): Promise<number> {
  const out = createWriteStream(path);
  const write = async (text: string) => {
    if (!out.write(text)) await once(out, 'drain');
  };
  let done = 0;
  try {
    await write(contactsHeader(crm.baseUrl, now));
    // Oldest first: contacts created while paging land on later pages instead of shifting earlier ones.
    for (let page = 1; ; page++) {
      const res = await crm.call('listContacts', (c) =>
        c.listContacts({ page, limit: PAGE, sortBy: 'createdAt', sortOrder: 'asc' }),
      );
      await write(res.data.map(contactLineFromCrm).join(''));
      done += res.data.length;
      onProgress({ done, total: Math.max(res.total, done) });
      if (!res.hasNext || res.data.length === 0) break;
    }
  } finally {
    out.end();
    await once(out, 'close');
  }
  return done;
}
