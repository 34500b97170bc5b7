// The one gateway call each catalogue entry makes, table-driven, against a recording gateway
// (split from catalogue.spec.ts, which covers parsing, guards and local effects).
import type { Channel, Contact } from '@crm-rules/crm-contract';
import type { ExecutionEnv } from './action-definition';
import { actionDefinition, type ResolvedAction } from './catalogue';
import { contactFixture } from '../../pipeline/execution/contact-fixture.spec-support';

const contact = (over: Partial<Contact> = {}): Contact =>
  contactFixture({ email: 'ana@x.test', customFields: { plan: 'opt-pro' }, ...over });
const channel = (status: Channel['status']): Channel => ({
  id: 'ch1',
  name: 'Main',
  platformType: 'MSG',
  status,
});

describe('the gateway call of each entry', () => {
  /** A gateway that records its calls and answers like the CRM would, minimally. */
  function recorder(conversations: unknown[] = [{ id: 'conv-last', channelId: 'ch-last' }]) {
    const calls: [string, ...unknown[]][] = [];
    const gateway = new Proxy(
      {},
      {
        get:
          (_t, name: string) =>
          async (...args: unknown[]) => {
            calls.push([name, ...args.slice(0, -1)]);
            if (name === 'listConversations') return { data: conversations };
            if (name === 'openConversation')
              return { id: `conv-on-${(args[0] as { channelId: string }).channelId}` };
            return undefined;
          },
      },
    );
    const env = (over: Partial<ExecutionEnv> = {}): ExecutionEnv => ({
      gateway: gateway as ExecutionEnv['gateway'],
      opts: { priority: 'interactive' },
      contact: contact(),
      ...over,
    });
    return { calls, env };
  }
  const message = { id: 'msg1', conversationId: 'conv-msg', messagePlatformId: 'pm1' };

  it.each<[string, ResolvedAction, Partial<ExecutionEnv>, [string, ...unknown[]][]]>([
    ['add-tag', { type: 'add-tag', tagId: 't1' }, {}, [['addTag', 'c1', 't1']]],
    ['unassign', { type: 'unassign' }, {}, [['updateContact', 'c1', { assigneeId: null }]]],
    [
      'set-field',
      { type: 'set-field', key: 'plan', value: 'o1' },
      {},
      [['updateContact', 'c1', { customFields: { plan: 'o1' } }]],
    ],
    [
      'update-contact',
      { type: 'update-contact', patch: { status: 'archived' } },
      {},
      [['updateContact', 'c1', { status: 'archived' }]],
    ],
    [
      'react to the triggering message',
      { type: 'react', emoji: '👍' },
      { message },
      [
        [
          'reactToMessage',
          { conversationId: 'conv-msg', contactId: 'c1', messagePlatformId: 'pm1', emoji: '👍' },
        ],
      ],
    ],
    [
      'a reply in the triggering conversation',
      { type: 'send-message', text: 'hi' },
      { message },
      [['sendMessage', { conversationId: 'conv-msg', contactId: 'c1', text: 'hi' }]],
    ],
    [
      'a message on the channel of the last conversation',
      { type: 'send-message', text: 'hi' },
      {},
      [
        ['listConversations', { contactId: 'c1', limit: 1 }],
        ['openConversation', { contactId: 'c1', channelId: 'ch-last' }],
        ['sendMessage', { conversationId: 'conv-on-ch-last', contactId: 'c1', text: 'hi' }],
      ],
    ],
    [
      'a template on a named channel, even in a message rule',
      {
        type: 'send-template',
        templateId: 'tpl',
        name: 'welcome',
        parameters: ['Ana'],
        channel: channel('connected'),
      },
      { message },
      [
        ['openConversation', { contactId: 'c1', channelId: 'ch1' }],
        [
          'sendMessageTemplate',
          { conversationId: 'conv-on-ch1', contactId: 'c1', templateId: 'tpl', bodyParameters: ['Ana'] },
        ],
      ],
    ],
  ])('%s', async (_name, action, over, expected) => {
    const { calls, env } = recorder();
    await actionDefinition(action.type).execute(action, env(over));
    expect(calls).toEqual(expected);
  });

  it('refuses to guess a conversation for a contact that never talked', async () => {
    const { calls, env } = recorder([]);
    await expect(
      actionDefinition('send-message').execute({ type: 'send-message', text: 'hi' }, env()),
    ).rejects.toThrow('has no conversation');
    expect(calls.map(([name]) => name)).toEqual(['listConversations']);
  });
});
