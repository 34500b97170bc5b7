// The "Must show": a rules repository made by `init`, given a snapshot of the CRM (the
// sandbox, started in this process), validated (a misspelt tag is an error with a suggestion),
// tested, forecast and diffed against a recorded event export, with no engine, Postgres or Redis.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox, type RunningSandbox } from '@crm-rules/crm-sandbox';
import { parseContactsFile } from '../../src/tooling/toolchain/contacts-file';
import { eventLine, eventsHeader } from '../../src/tooling/toolchain/recorded-events';
import { cli, git } from '../support/cli';

const DORMANT = `rule: dormant-contacts
on:
  schedule: '0 6 * * *'
  segment:
    filters:
      lastInteractionBefore: now-30d
      status: active
when: entered
do:
  - add-tag: dormant
on-leave:
  - remove-tag: dormant
`;

describe('the crm-rules CLI as a package', () => {
  it('loads no Nest, TypeORM, BullMQ, Redis or Postgres client when it starts', () => {
    const script = `require(${JSON.stringify(join(__dirname, '..', '..', 'src', 'tooling', 'cli'))});
      const heavy = Object.keys(require.cache).filter((k) => /node_modules[\\/](@nestjs|typeorm|bullmq|ioredis|pg)[\\/]/.test(k));
      process.stdout.write(JSON.stringify(heavy));`;
    const child = spawnSync(process.execPath, ['-r', 'ts-node/register/transpile-only', '-e', script], {
      encoding: 'utf8',
      cwd: join(__dirname, '../..'),
    });
    expect(child.stderr).toBe('');
    expect(JSON.parse(child.stdout)).toEqual([]);
  });
});

describe('crm-rules toolchain in a separate rules repository', () => {
  let sandbox: RunningSandbox;
  let repo: string;
  let rules: string;
  const savedKey = process.env.CRM_API_KEY;

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0 });
    process.env.CRM_API_KEY = 'sk_demo_full';
    repo = mkdtempSync(join(tmpdir(), 'crm-rules-repo-'));
    rules = join(repo, 'rules');
  });
  afterAll(async () => {
    await sandbox.close();
    rmSync(repo, { recursive: true, force: true });
    if (savedKey === undefined) delete process.env.CRM_API_KEY;
    else process.env.CRM_API_KEY = savedKey;
  });

  it('init scaffolds rules, a test, a snapshot placeholder, schemas and a CI workflow', async () => {
    const { code, out } = await cli('init', repo);
    expect(code).toBe(0);
    for (const f of [
      'package.json',
      'rules/welcome.yaml',
      'rules/welcome.test.yaml',
      '.github/workflows/rules.yml',
    ])
      expect(out).toContain(join(repo, f));
    const workflow = readFileSync(join(repo, '.github/workflows/rules.yml'), 'utf8');
    expect(workflow).toMatch(/crm-rules validate rules --format github/);
    expect(workflow).toMatch(/crm-rules diff rules --base/);
    expect(workflow).toMatch(/crm-rules graph rules --format dot --output rules-graph\.dot/);
    // The placeholder checks nothing yet, and says so.
    const validated = await cli('validate', rules);
    expect(validated.code).toBe(0);
    expect(validated.err).toMatch(/names were not checked/);
  });

  it('snapshot pulls the directory and every contact of the CRM', async () => {
    const { code, out } = await cli('snapshot', rules, '--url', sandbox.url, '--contacts');
    expect(code).toBe(0);
    expect(out).toMatch(/\.crm-snapshot\.json: 6 tag\(s\), 3 stage\(s\)/);
    const contacts = parseContactsFile(readFileSync(join(rules, '.crm-contacts.ndjson'), 'utf8'), 'x');
    expect(contacts.contacts.length).toBe(10);
  });

  it('validate names a misspelt tag at file:line:col with a suggestion', async () => {
    writeFileSync(join(rules, 'typo.yaml'), DORMANT.replace('add-tag: dormant', 'add-tag: dormnt'));
    const { code, out } = await cli('validate', join(rules, 'typo.yaml'), '--format', 'github');
    expect(code).toBe(1);
    expect(out).toContain(
      `::error file=${join(rules, 'typo.yaml')},line=10,col=14,title=crm-rules unknown-name::unknown tag "dormnt"`,
    );
    expect(out).toContain('(did you mean "dormant"?)');
    rmSync(join(rules, 'typo.yaml'));
    writeFileSync(join(rules, 'dormant.yaml'), DORMANT);
    const fixed = await cli('validate', rules);
    expect(fixed.code).toBe(0);
    expect(fixed.err).toMatch(/names checked against the CRM snapshot/);
  });

  it('test runs the scaffolded test and reports coverage', async () => {
    const { code, out } = await cli('test', rules, '--coverage');
    expect(out).toMatch(/2 passed, 0 failed\n$/);
    expect(out).toContain('untested: dormant-contacts');
    expect(code).toBe(0);
  });

  it('forecast counts the members the first sweep would tag', async () => {
    const { code, out } = await cli('forecast', rules, '--format', 'json');
    expect(code).toBe(0);
    const f = JSON.parse(out);
    const contacts = parseContactsFile(
      readFileSync(join(rules, '.crm-contacts.ndjson'), 'utf8'),
      'x',
    ).contacts;
    const cutoff = Date.now() - 30 * 86_400_000;
    const expected = contacts.filter(
      (c) => c.status === 'active' && c.lastInteractionAt !== null && c.lastInteractionAt.getTime() < cutoff,
    );
    expect(expected.length).toBeGreaterThan(0);
    expect(f.rules).toHaveLength(1);
    expect(f.rules[0].members).toBe(expected.length);
    const alreadyTagged = expected.filter((c) => c.tags.some((t) => t.name === 'dormant')).length;
    expect(f.rules[0].actions[0]).toMatchObject({ sent: expected.length - alreadyTagged });
  });

  it('forecast leaves a disabled rule out, with a note, though its names would fail the check', async () => {
    const file = join(rules, 'disabled.yaml');
    writeFileSync(
      file,
      "rule: parked\nenabled: false\non:\n  schedule: '0 6 * * *'\n  segment:\n    filters: { tagIds: [no-such-tag] }\ndo:\n  - add-tag: no-such-tag\n",
    );
    try {
      expect((await cli('validate', rules)).code).toBe(1); // validate still reports its names
      const { code, out, err } = await cli('forecast', rules, '--format', 'json');
      expect(err).toContain('info: disabled rule(s) left out of the forecast: parked');
      expect(JSON.parse(out).rules.map((r: { rule: string }) => r.rule)).toEqual(['dormant-contacts']);
      expect(code).toBe(0);
    } finally {
      rmSync(file);
    }
  });

  it('diff against the committed rules names the contacts a narrowed condition drops', async () => {
    git(repo, 'init', '-q');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-qm', 'rules');
    const contacts = parseContactsFile(
      readFileSync(join(rules, '.crm-contacts.ndjson'), 'utf8'),
      'x',
    ).contacts;
    const events = join(repo, 'events.ndjson');
    writeFileSync(
      events,
      eventsHeader('test', new Date(), {}) +
        contacts
          .map((c, i) =>
            eventLine({
              id: `evt-${i}`,
              type: 'contact.created',
              createdAt: new Date(Date.UTC(2024, 4, 1, 10, i)).toISOString(),
              data: { ...c, createdAt: c.createdAt.toISOString() } as unknown as Record<string, unknown>,
              contactId: c.id,
            }),
          )
          .join(''),
    );
    const welcome = join(rules, 'welcome.yaml');
    writeFileSync(
      welcome,
      readFileSync(welcome, 'utf8').replace(
        '    - { fact: contact.isBlocked, operator: equal, value: false }',
        '    - { fact: contact.isBlocked, operator: equal, value: false }\n    - { fact: contact.status, operator: equal, value: active }',
      ),
    );
    const { code, out } = await cli('diff', rules, '--base', 'HEAD', '--events', events, '--format', 'json');
    expect(code).toBe(0);
    const d = JSON.parse(out);
    const losers = contacts.filter((c) => !c.isBlocked && c.status !== 'active').map((c) => c.id);
    expect(losers.length).toBeGreaterThan(0);
    expect(d.rules).toHaveLength(1);
    expect(d.rules[0]).toMatchObject({ rule: 'tag-new-contacts', change: 'changed', gainedContacts: [] });
    expect(d.rules[0].lostContacts).toEqual([...losers].sort());
    const gate = await cli('diff', rules, '--base', 'HEAD', '--events', events, '--fail-on-change');
    expect(gate.code).toBe(1);
    expect(gate.out).toMatch(/tag-new-contacts \(changed\): \d+ contact\(s\) lose actions/);
  });
});
