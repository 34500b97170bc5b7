import { applyFilters, parseTag } from './template-filters';
import { renderTemplate } from './template-values';

describe('template filters', () => {
  const view = {
    contact: {
      name: 'Ana Costa',
      email: null,
      notes: '',
      tags: [],
      createdAt: '2024-05-06T23:30:00Z',
      customFields: { plan: 'pro', seats: 1234.5, firstName: '' },
    },
  };

  it.each<[string, string]>([
    ['Hi {{contact.customFields.firstName | default: "there"}}', 'Hi there'],
    ['Hi {{contact.customFields.nickname | default: "there"}}!', 'Hi there!'],
    ["{{contact.email | default: 'no email'}}", 'no email'],
    ['{{contact.notes | default: "-"}}', '-'],
    ['{{contact.tags | default: "untagged"}}', 'untagged'],
    ['{{contact.name | default: "there"}}', 'Ana Costa'],
    ['{{ contact.name | upcase }}', 'ANA COSTA'],
    ['{{contact.name|downcase}}', 'ana costa'],
    ['{{contact.customFields.plan | upcase | default: "FREE"}}', 'PRO'],
    ['{{contact.createdAt | date: "dd/MM/yyyy HH:mm"}}', '06/05/2024 23:30'],
    ['{{contact.createdAt | date: "d LLL, HH:mm", "Europe/Lisbon"}}', '7 May, 00:30'],
    ['{{contact.email | date: "d LLL" | default: "never"}}', 'never'],
    ['{{contact.customFields.seats | number}}', '1,234.5'],
    ['{{contact.customFields.seats | number: 2}}', '1,234.50'],
    ['{{contact.customFields.seats | number: 0}}', '1,235'],
    ['{{contact.name | number}}', 'Ana Costa'],
    ['{{contact.customFields.firstName | default: "a \\"quoted\\" | bar"}}', 'a "quoted" | bar'],
  ])('%s → %s', (text, rendered) => {
    expect(renderTemplate(text, view)).toBe(rendered);
  });

  it('formats dates in the rule zone when the filter names none', () => {
    expect(
      renderTemplate('{{contact.createdAt | date: "yyyy-MM-dd HH:mm"}}', view, { zone: 'Asia/Tokyo' }),
    ).toBe('2024-05-07 08:30');
  });

  it.each<[string, string]>([
    ['contact.name | titlecase', 'unknown filter "titlecase"'],
    ['contact.name | default', 'default takes 1 argument(s), got 0'],
    ['contact.name | default: 3', 'default: argument 1 must be quoted text'],
    ['contact.name | upcase: "x"', 'upcase takes no argument, got 1'],
    ['contact.name | date: "d", "Mars/Base"', 'date: "Mars/Base" is not an IANA time zone'],
    ['contact.name | number: 1.5', 'number: the decimals are a whole number from 0 to 10'],
    ['contact.name | default: there', 'default: arguments are "quoted text" or numbers'],
    ['contact.name ||', 'expected "| filter"'],
  ])('refuses {{%s}}: %s', (content, message) => {
    expect(() => parseTag(content)).toThrow(message);
  });

  it('default keeps zero and false, which are values', () => {
    const d = [{ name: 'default' as const, args: ['x'] }];
    expect(applyFilters(0, d)).toBe(0);
    expect(applyFilters(false, d)).toBe(false);
  });

  it('reads own data only: nothing inherited or callable', () => {
    expect(
      renderTemplate('{{contact.constructor}}{{contact.name.toString}}{{contact.__proto__}}', view),
    ).toBe('');
  });
});
