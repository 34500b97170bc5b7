// Secret references in header values: kept apart from rendered text, filled from the configured
// secrets at the last moment, a missing one named without any value.
import { headerParts, joinHeader, namesSecret, secretNames } from './secret-headers';

const secrets = { ERP_TOKEN: 's3cr3t', OTHER: 'x' };
const facts: Record<string, string> = { '{{contact.name}}': '${secret.ERP_TOKEN}', '{{contact.id}}': 'c1' };
const render = (t: string) => t.replace(/\{\{[^}]+\}\}/g, (tag) => facts[tag] ?? '');

describe('secret references in headers', () => {
  it.each([
    ['Bearer ${secret.ERP_TOKEN}', 'Bearer s3cr3t', true],
    ['${secret.ERP_TOKEN}:${secret.OTHER}', 's3cr3t:x', true],
    ['contact {{contact.id}}', 'contact c1', false],
    ['${secret.lower}', '${secret.lower}', false],
    // A fact that reads like a reference stays text: no secret leaks through a contact's name.
    ['from {{contact.name}}', 'from ${secret.ERP_TOKEN}', false],
    ['line\r\nX-Injected: 1', 'line X-Injected: 1', false],
  ])('%s → %s', (template, value, named) => {
    const parts = headerParts(template, render);
    expect(joinHeader(parts, secrets)).toBe(value);
    expect(namesSecret(parts)).toBe(named);
  });

  it('names the missing secret and not the values it knows', () => {
    expect(() => joinHeader(headerParts('Bearer ${secret.NOPE}', render), secrets)).toThrow(
      /^secret NOPE is not configured(?![\s\S]*s3cr3t)/,
    );
  });

  it('lists the names a value refers to', () => {
    expect(secretNames('${secret.A} ${secret.B_2}')).toEqual(['A', 'B_2']);
  });
});
