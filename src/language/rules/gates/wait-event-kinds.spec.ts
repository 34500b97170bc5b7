import { loadRulesFromFiles } from '../format/load-rules';
import { waitEventKinds } from './wait-event-kinds';

const kindsOf = (text: string) =>
  waitEventKinds(loadRulesFromFiles([{ path: 'r.yaml', text }]).ruleSet!.rules);

describe('waitEventKinds', () => {
  it.each([
    ['a rule without timing', 'rule: a\non: contact.created\ndo: [{ add-tag: x }]\n', []],
    ['a wait', 'rule: a\non: contact.created\ndo:\n  - wait: 1h\n  - add-tag: x\n', ['contact.deleted']],
    [
      'a wait until a message',
      'rule: a\non: message.created\ndo:\n  - wait: 1h\n    until: { event: message.created, same: conversation }\n  - add-tag: x\n',
      ['contact.deleted', 'message.created'],
    ],
    [
      'a limit',
      'rule: a\non: contact.created\nlimit: { max: 1, per: 1h }\ndo: [{ add-tag: x }]\n',
      ['contact.deleted'],
    ],
    [
      'a shadow rule (never waits)',
      'rule: a\non: contact.created\nmode: shadow\ndo:\n  - wait: 1h\n  - add-tag: x\n',
      [],
    ],
  ])('%s -> %j', (_name, text, expected) => {
    expect(kindsOf(text)).toEqual(expected);
  });
});
