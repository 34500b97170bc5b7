import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RuleSetService } from './rule-set.service';
import { ruleSetInTempDir } from './rule-set.spec-support';

const RULE = 'rule: a\non: contact.created\ndo: [{ add-tag: a }]\n';
const ICS = 'BEGIN:VCALENDAR\nBEGIN:VEVENT\nDTSTART;VALUE=DATE:20261225\nEND:VEVENT\nEND:VCALENDAR\n';

// The messaging policy is loaded, versioned and hot-reloaded with the rules (RuleSetService).
describe('RuleSetService with policy.yaml', () => {
  let dir: string;
  let service: RuleSetService;
  const write = (name: string, text: string) => writeFileSync(join(dir, name), text);

  let cleanUp: () => void;

  beforeEach(() => {
    ({ dir, service, cleanUp } = ruleSetInTempDir());
    write('a.yaml', RULE);
  });
  afterEach(() => cleanUp());

  it('runs without a policy as before, and picks one up on reload with a new version', async () => {
    await service.onModuleInit();
    const before = service.current()!;
    expect(before.policy).toBeUndefined();
    write('policy.yaml', 'caps: [{ max: 2, per: 1d }]\ncalendars:\n  holidays: { ics: holidays.ics }\n');
    write('holidays.ics', ICS);
    const result = await service.reload('test');
    expect(result.ok).toBe(true);
    expect(result.version).not.toBe(before.version);
    expect(service.current()!.policy).toMatchObject({
      caps: [{ max: 2 }],
      calendars: { holidays: ['2026-12-25'] },
    });
    // Editing the .ics file is a change of the rule set too.
    write('holidays.ics', ICS.replace('20261225', '20261226'));
    const edited = await service.reload('test');
    expect(edited.version).not.toBe(result.version);
    expect(service.current()!.policy!.calendars.holidays).toEqual(['2026-12-26']);
  });

  it('keeps the last good set when the policy breaks, with the problem at file:line:col', async () => {
    write('policy.yaml', 'caps: [{ max: 2, per: 1d }]\n');
    await service.onModuleInit();
    const good = service.current()!;
    write('policy.yaml', 'caps: [{ max: 2, per: 1 day }]\n');
    const result = await service.reload('test');
    expect(result.ok).toBe(false);
    expect(result.problems[0]).toMatchObject({ file: join(dir, 'policy.yaml'), line: 1, col: 23 });
    expect(service.current()).toBe(good);
  });
});
