import { contactLabel, contactSearchTerm } from './contact-search-term';

describe('contactSearchTerm', () => {
  it.each([
    ['Dana', 'Dana'],
    ['  dana@demo.test ', 'dana@demo.test'],
    ['+55 (11) 90000-0042', '5511900000042'],
    ['0042', '0042'],
    ['d', null],
    ['   ', null],
    [undefined, null],
    [['Dana'], null],
  ])('%j → %j', (raw, term) => {
    expect(contactSearchTerm(raw)).toBe(term);
  });
});

describe('contactLabel', () => {
  it('names a mirrored contact with its phone, and shows an unknown one as its id', () => {
    expect(contactLabel({ name: 'Dana Demo', phone: '5511900000042' }, 'c-1')).toBe(
      'Dana Demo (+5511900000042)',
    );
    expect(contactLabel(undefined, 'c-1')).toBe('c-1');
  });
});
