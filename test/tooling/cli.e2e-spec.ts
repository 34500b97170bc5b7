// The crm-rules CLI, run in-process through its exported run(argv): no build, no Postgres,
// no Redis, no network. The example rules of the repository must validate and pass their tests.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli } from '../support/cli';

describe('crm-rules CLI', () => {
  let tmp: string;
  beforeEach(() => {
    tmp = mkdtempSync(join(tmpdir(), 'crm-rules-cli-'));
  });
  afterEach(() => rmSync(tmp, { recursive: true, force: true }));

  it('validates the example rules of the repository', async () => {
    const { code, out } = await cli('validate', 'rules');
    expect(code).toBe(0);
    expect(out).toMatch(/^✔ rules: 5 rule\(s\) in 4 file\(s\) are valid \(rule set \w{12}\)\n$/);
  });

  it('passes the rule tests of the repository', async () => {
    const { code, out } = await cli('test', 'rules');
    expect(out).toMatch(/\n17 passed, 0 failed\n$/);
    expect(code).toBe(0);
  });

  it.each([
    ['rules/auto-tag.test.yaml', 5],
    ['recipes/refund-triage.test.yaml', 4],
    ['rules/*.test.yaml', 17],
  ])('test %s loads the rules beside it', async (input, passed) => {
    const { code, out } = await cli('test', input);
    expect(out).not.toContain('unknown rule');
    expect(out).toMatch(new RegExp(`\\n${passed} passed, 0 failed\\n$`));
    expect(code).toBe(0);
  });

  it('exits 1 on a broken set and prints GitHub annotations', async () => {
    const { code, out } = await cli(
      'validate',
      'test/language/rules/broken/unknown-event',
      '--format',
      'github',
    );
    expect(code).toBe(1);
    expect(out.split('\n').slice(0, 2)).toEqual([
      '::error file=test/language/rules/broken/unknown-event/kinds.yaml,line=2,col=5,title=crm-rules unknown-event::unknown event kind "contact.create" (did you mean "contact.created"?)',
      '::error file=test/language/rules/broken/unknown-event/kinds.yaml,line=7,col=23,title=crm-rules unknown-event::unknown event kind "message.deleted" (did you mean "message.created"?)',
    ]);
  });

  it('prints a JSON report', async () => {
    const { code, out } = await cli('validate', 'test/language/rules/broken/loop', '--format', 'json');
    const report = JSON.parse(out);
    expect(code).toBe(1);
    expect(report).toMatchObject({ ok: false, errors: 2, warnings: 0 });
    expect(report.problems.map((p: { code: string; line: number }) => [p.code, p.line])).toEqual([
      ['loop', 7],
      ['loop', 27],
    ]);
  });

  it('reports the new static checks in every format: warnings exit 0, an impossible condition 1', async () => {
    const fights = await cli('validate', 'test/language/rules/broken/tag-fight', '--format', 'github');
    expect(fights.code).toBe(0);
    expect(fights.out.split('\n').filter((l) => l.startsWith('::'))).toEqual([
      expect.stringMatching(
        /^::warning file=test\/language\/rules\/broken\/tag-fight\/rules.yaml,line=17,col=5,title=crm-rules tag-fight::fight over tag "dormant"/,
      ),
      expect.stringMatching(
        /^::warning file=.*,line=30,col=5,title=crm-rules tag-fight::fight over tag "vip"/,
      ),
      expect.stringMatching(
        /^::warning file=.*within-branches.yaml,line=14,col=12,title=crm-rules tag-fight::.* on path \[then\]/,
      ),
    ]);
    const unreachable = await cli('validate', 'test/language/rules/broken/unreachable', '--format', 'json');
    expect(unreachable.code).toBe(0);
    expect(JSON.parse(unreachable.out)).toMatchObject({
      ok: true,
      errors: 0,
      warnings: 1,
      problems: [{ code: 'unreachable', severity: 'warning', line: 12, col: 7 }],
    });
    const impossible = await cli('validate', 'test/language/rules/broken/impossible-condition');
    expect(impossible.code).toBe(1);
    expect(impossible.out).toMatch(
      /^test\/language\/rules\/broken\/impossible-condition\/rules.yaml:7:7: error: rule "active-and-archived" can never match/,
    );
  });

  it('exits 1 on a failing rule test, with the diff and the explain trace', async () => {
    writeFileSync(
      join(tmp, 'r.yaml'),
      'rule: tag-ads\non: contact.created\nif: { fact: contact.sourceMethod, operator: equal, value: MSG_API_AD }\ndo: [{ add-tag: ad-lead }]\n',
    );
    writeFileSync(
      join(tmp, 'r.test.yaml'),
      'tests:\n  - name: tags ads\n    event: { type: contact.created, data: { sourceMethod: MSG_API_AD } }\n    expect: [{ add-tag: ad-lead }]\n  - name: wrongly expects a tag\n    event: { type: contact.created, data: { sourceMethod: MANUAL } }\n    expect: [{ add-tag: ad-lead }]\n',
    );
    const { code, out } = await cli('test', tmp);
    expect(code).toBe(1);
    expect(out).toContain(`✔ ${join(tmp, 'r.test.yaml')}:2 tags ads\n`);
    expect(out).toContain(`✘ ${join(tmp, 'r.test.yaml')}:5 wrongly expects a tag\n`);
    expect(out).toContain('      - add-tag "ad-lead"   (missing)\n');
    expect(out).toContain('          ✘ contact.sourceMethod equal "MSG_API_AD": saw "MANUAL"\n');
    expect(out).toMatch(/\n1 passed, 1 failed\n$/);
  });

  it('refuses to test rules that do not validate', async () => {
    const { code, out } = await cli('test', 'test/language/rules/broken/schema');
    expect(code).toBe(1);
    expect(out).toContain('the rules do not validate');
  });

  it('explains one rule for one event, condition by condition', async () => {
    const event = {
      id: 'evt_1',
      type: 'message.created',
      createdAt: '2024-05-02T15:29:00Z',
      data: { isOutgoing: false, text: 'where is my order?' },
    };
    writeFileSync(join(tmp, 'event.json'), JSON.stringify(event));
    writeFileSync(join(tmp, 'contact.yaml'), 'assigneeId: null\nisBlocked: false\n');
    const { code, out } = await cli(
      'explain',
      '--rule',
      'thank-for-order',
      '--event',
      join(tmp, 'event.json'),
      '--contact',
      join(tmp, 'contact.yaml'),
    );
    expect(code).toBe(0);
    expect(out.split('\n')).toEqual([
      expect.stringMatching(/^rule set \w{12}, now 2024-05-02T15:29:00.000Z$/),
      expect.stringMatching(
        /^rule thank-for-order @\w{12} \(rules\/thank-for-order.yaml:4:1\): not matched$/,
      ),
      '  ✘ all',
      '    ✔ message.isOutgoing equal false: saw false',
      '    ✔ message.text matches "(?i)\\\\border\\\\b": saw "where is my order?"',
      '    ✘ contact.assigneeId exists true: saw null',
      '    ✔ contact.isBlocked equal false: saw false',
      '',
    ]);
  });

  it('explains a segment rule for one contact', async () => {
    writeFileSync(
      join(tmp, 'contact.json'),
      JSON.stringify({
        id: 'c1',
        name: 'A',
        phone: '351912345678',
        status: 'active',
        isBlocked: false,
        tags: [],
        createdAt: '2024-01-01T00:00:00Z',
        updatedAt: '2024-01-01T00:00:00Z',
        lastInteractionAt: '2024-01-01T00:00:00Z',
      }),
    );
    const { code, out } = await cli(
      'explain',
      '--rule',
      'dormant-contacts',
      '--contact',
      join(tmp, 'contact.json'),
      '--now',
      '2024-06-01T06:00:00Z',
    );
    expect(code).toBe(0);
    expect(out).toContain('rule dormant-contacts: the contact entered the segment, so do runs');
    expect(out).toContain('actions: add-tag "dormant"\n');
  });

  it('answers usage errors with exit code 2', async () => {
    // The unknown rule is refused before x.json (which does not exist) is read.
    const unknown = await cli('explain', '--rule', 'no-such-rule', '--event', 'x.json');
    expect(unknown.code).toBe(2);
    expect(unknown.err).toMatch(/^unknown rule "no-such-rule"/);
    expect((await cli('validate', 'rules', '--format', 'xml')).code).toBe(2);
    expect((await cli('frobnicate')).code).toBe(2);
    expect((await cli('--help')).code).toBe(0);
  });

  it('tells to build first when the compiled CLI is missing', () => {
    mkdirSync(join(tmp, 'bin'));
    copyFileSync(join(__dirname, '..', '..', 'bin', 'crm-rules.js'), join(tmp, 'bin', 'crm-rules.js'));
    const child = spawnSync(process.execPath, [join(tmp, 'bin', 'crm-rules.js'), 'validate'], {
      encoding: 'utf8',
    });
    expect(child.status).toBe(2);
    expect(child.stderr).toContain('run npm run build');
  });
});
