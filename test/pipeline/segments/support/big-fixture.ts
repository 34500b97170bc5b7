// The demo fixture plus `n` generated contacts in its first organization.
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { DEMO_FIXTURE_PATH, type SandboxFixture } from '@crm-rules/crm-sandbox';

export function bigFixture(
  n: number,
  make: (i: number) => Record<string, unknown> = defaultContact,
): SandboxFixture {
  const text = readFileSync(DEMO_FIXTURE_PATH, 'utf8');
  const fixture = parse(text) as SandboxFixture;
  const org = fixture.organizations[0];
  org.contacts = [...(org.contacts ?? []), ...Array.from({ length: n }, (_, i) => make(i) as never)];
  return fixture;
}

function defaultContact(i: number): Record<string, unknown> {
  return {
    name: `Generated ${i}`,
    phone: String(5511900000000 + i),
    createdAt: new Date(Date.UTC(2024, 0, 1) + i * 60_000).toISOString(),
  };
}
