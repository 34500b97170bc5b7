import { loadRulesFromFiles } from '../format/load-rules';

// A message's assign-first writes the assignee only while the contact has none: the
// contact.updated it causes settles, so it alone closes no loop; the message itself is new every run.
const rule = (id: string, on: string, body: string) => `rule: ${id}\non: ${on}\n${body}\n---\n`;
const codes = (text: string) =>
  loadRulesFromFiles([{ path: 'r/a.yaml', text }]).problems.map((p) => [p.code, p.message.slice(0, 40)]);

it.each<[string, string, string[][]]>([
  [
    'assign-first on contact.updated settles',
    rule('offer', 'contact.updated', 'do: [{ send-message: hi, assign-first: round-robin }]'),
    [],
  ],
  [
    'assign-first through another rule on contact.updated settles',
    rule('offer', 'contact.updated', 'do: [{ send-message: hi, assign-first: round-robin }]') +
      rule('stage', 'contact.updated', 'do: [{ move-stage: null }]'),
    [],
  ],
  [
    'a round-robin assign still loops',
    rule('rr', 'contact.updated', 'do: [{ send-message: hi, assign-first: Ana }, { assign: round-robin }]'),
    [['loop', 'loop: rr (assign "round-robin" -> contac']],
  ],
  [
    'a message answered by a rule on message.created still loops',
    rule('echo', 'message.created', 'do: [{ send-message: hi, assign-first: round-robin }]'),
    [['loop', 'loop: echo (send-message "hi" assign-fir']],
  ],
])('%s', (_name, text, expected) => {
  expect(codes(text)).toEqual(expected);
});
