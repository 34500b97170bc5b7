import type { Message } from '@crm-rules/crm-contract';
import { isSentTemplate, renderTemplateBody, type SentTemplate } from './template-message';

const message = (over: Partial<Message> & Record<string, unknown>): Message => ({
  id: 'm1',
  conversationId: 'conv',
  contactId: 'c1',
  messagePlatformId: 'pm_1',
  isOutgoing: true,
  text: 'Hello Ana, welcome!',
  type: 'template',
  createdAt: '2026-01-01T00:00:00.000Z',
  ...over,
});

const welcome: SentTemplate = { templateId: 'tpl-en', body: 'Hello {{1}}, welcome!', parameters: ['Ana'] };
const noBody: SentTemplate = { templateId: 'tpl-en', parameters: ['Ana', 'A-17'] };

describe('isSentTemplate: is this message the template the action sent?', () => {
  it.each<[string, SentTemplate, Message, boolean]>([
    ['the body rendered with our parameters', welcome, message({}), true],
    ['the same template for another contact name', welcome, message({ text: 'Hello Bob, welcome!' }), false],
    [
      'another template (or the same one in another language)',
      welcome,
      message({ text: 'Hola Ana, bienvenida!' }),
      false,
    ],
    ['a plain text that reads the same', welcome, message({ type: 'text' }), false],
    ['a template message naming another template id', welcome, message({ templateId: 'tpl-es' }), false],
    ['a template message naming our template id', welcome, message({ templateId: 'tpl-en' }), true],
    [
      'no body known: every parameter in the text',
      noBody,
      message({ text: 'Ana, order A-17 shipped' }),
      true,
    ],
    [
      'no body known: a parameter missing from the text',
      noBody,
      message({ text: 'Ana, order shipped' }),
      false,
    ],
    ['the CRM shows no text: any template message counts', welcome, message({ text: null }), true],
    [
      'the CRM shows no text, but another template id',
      welcome,
      message({ text: null, templateId: 'x' }),
      false,
    ],
    ['no text and not a template', welcome, message({ text: null, type: 'image' }), false],
  ])('%s', (_case, sent, m, expected) => {
    expect(isSentTemplate(sent, m)).toBe(expected);
  });
});

describe('renderTemplateBody', () => {
  it.each<[string, string[], string]>([
    ['Hello {{1}}!', ['Ana'], 'Hello Ana!'],
    ['{{2}} then {{1}}', ['a', 'b'], 'b then a'],
    ['Hello {{1}} {{2}}', ['Ana'], 'Hello Ana '],
    ['No placeholders', ['x'], 'No placeholders'],
  ])('%s with %j', (body, params, expected) => {
    expect(renderTemplateBody(body, params)).toBe(expected);
  });
});
