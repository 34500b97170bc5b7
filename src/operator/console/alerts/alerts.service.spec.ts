// AlertsService raises customer messages not sent (issue 32, attention first): a growth of the
// count of skipped messages between two checks sends one alert naming the reasons, never a contact.
import type { AppConfig } from '../../../runtime/config/app-config';
import type { CrmBudgetView } from '../../../outbound/crm-gateway/crm-budget-view';
import type { EngineMetrics } from '../../ops/engine-metrics';
import type { ActionResultsRepository } from '../../../persistence/ledger/action-results.repository';
import type { InboxEventsRepository } from '../../../persistence/ledger/inbox-events.repository';
import type { DeployedVersions } from '../../../runtime/rule-set/deploy/deployed-versions.service';
import { AlertsService } from './alerts.service';

describe('AlertsService: messages not sent', () => {
  afterEach(() => jest.restoreAllMocks());

  it('alerts when customer messages were skipped since the last check', async () => {
    let skipped: Record<string, number> = { needs_assignee: 1 };
    const actionResults = {
      views: {
        countsNeedingAttention: async () => ({}),
        countSkippedMessages: async () => skipped,
      },
    } as unknown as ActionResultsRepository;
    const alerts = new AlertsService(
      { alertWebhookUrl: 'https://hooks.example.test/x' } as AppConfig,
      actionResults,
      { views: { countFailed: async () => 0 } } as unknown as InboxEventsRepository,
      { budgetSnapshot: async () => ({}) } as unknown as CrmBudgetView,
      {
        events: { get: async () => ({ values: [] }) },
        subscriptionDelivering: { get: async () => ({ values: [] }) },
      } as unknown as EngineMetrics,
      { missingNames: () => [] } as unknown as DeployedVersions,
    );
    const sent: string[] = [];
    jest.spyOn(globalThis, 'fetch').mockImplementation(async (_url, init) => {
      sent.push(JSON.parse(String(init?.body)).text);
      return new Response('ok');
    });
    await alerts.check(1_000_000);
    expect(sent).toEqual([]); // the first check only takes the count
    skipped = { needs_assignee: 2, policy_cap: 1 };
    await alerts.check(1_015_000);
    expect(sent).toEqual([
      'CRM rules engine: 2 customer message(s) not sent (needs_assignee, policy_cap); see /console/failures',
    ]);
  });
});
