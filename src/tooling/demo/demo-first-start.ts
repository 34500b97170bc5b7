// The demo's first minute (`npm start` against the embedded sandbox): one demo contact for the
// example rules to act on, and one sweep of each segment rule now rather than at its cron time.
// The contact is found or created by a fixed phone, so every start shows the same Dana Demo.
import type { INestApplication, Logger } from '@nestjs/common';
import { CrmWrites } from '../../outbound/crm-gateway/crm-writes';
import { RuleSetService } from '../../runtime/rule-set/rule-set.service';
import { SweepQueueService } from '../../pipeline/segments/sweeps/sweep-queue.service';

/** Not one of the sandbox fixture's phones (phones are unique per organization). */
export const DEMO_CONTACT = { name: 'Dana Demo', phone: '5511900000042', email: 'dana@demo.test' };

export async function findOrCreateDemoContact(app: INestApplication, logger: Logger): Promise<void> {
  const gateway = app.get(CrmWrites);
  const found = await gateway.listContacts({ search: DEMO_CONTACT.phone }, { priority: 'interactive' });
  const existing = found.data.find((c) => c.phone === DEMO_CONTACT.phone);
  if (existing) {
    logger.log(`demo: contact ${existing.id} (${existing.name}) is already in the sandbox`);
    return;
  }
  const contact = await gateway.createContact(DEMO_CONTACT, { priority: 'interactive' });
  logger.log(
    `demo: created contact ${contact.id} (${contact.name}) in the sandbox; watch the rules act on it`,
  );
}

/** Segment rules run on their cron; a newcomer should not wait for 06:00 to see one. */
export async function sweepSegmentRulesNow(app: INestApplication, logger: Logger): Promise<void> {
  const sweeps = app.get(SweepQueueService);
  for (const rule of app.get(RuleSetService).current()?.scheduledRules() ?? []) {
    if (!rule.enabled) continue;
    await sweeps.enqueue(rule.id, new Date(), 'manual');
    logger.log(`demo: sweeping segment rule ${rule.id} once now (then on its schedule)`);
  }
}
