// Customer-facing writes happen at most once, whatever happens to the CRM's answer: the
// sandbox applies the write and loses the answer (502, or past the timeout), or refuses it
// before handling (500). Each case ends with the customer holding at most one message and the
// action succeeded or uncertain; uncertain ones wait for an operator and retry-dead leaves them.
import { DataSource } from 'typeorm';
import {
  ADMIN_TOKEN,
  crm,
  eventually,
  Harness,
  newContact,
  startHarness,
} from '../../support/engine-harness';
import { DEMO } from '../../support/demo-fixture';
import { api } from '../../support/http';
import { REACT_RULE, SEND_RULE, actionRowsWhenSettled, TEMPLATE_RULE } from '../../support/message-rules';

jest.setTimeout(120_000);

const SEND_ROUTE = 'POST /v1/messages';
const REACT_ROUTE = 'POST /v1/messages/reactions';
const TEMPLATE_ROUTE = 'POST /v1/message-templates/send';

const RULES = {
  'send.yaml': SEND_RULE + '  - add-tag: thanked\n',
  'template.yaml': TEMPLATE_RULE,
  'react.yaml': REACT_RULE,
};

describe('at-most-once writes against a CRM that loses answers', () => {
  let h: Harness;
  let db: DataSource;
  let member: string;

  beforeAll(async () => {
    h = await startHarness({ rules: RULES, env: { CRM_TIMEOUT_MS: '1500' } });
    db = h.app.get(DataSource);
    member = (await crm(h, 'GET', '/v1/users')).body.data[0].id;
  });
  afterAll(async () => h?.stop());

  const fault = (spec: Record<string, unknown>) => api(h.sandboxUrl, 'POST', '/_sandbox/faults', spec);
  const admin = (method: string, path: string, body?: unknown) =>
    api(h.url, method, path, body, { 'x-admin-token': ADMIN_TOKEN });
  const settled = (contactId: string, ruleId: string) => actionRowsWhenSettled(db, contactId, ruleId, 60_000);
  const messagesOf = async (contactId: string) => {
    const convs = (await crm(h, 'GET', `/v1/conversations?contactId=${contactId}`)).body.data;
    const all: { text: string; isOutgoing: boolean; reaction?: string | null }[] = [];
    for (const c of convs)
      all.push(...(await crm(h, 'GET', `/v1/messages?conversationId=${c.id}`)).body.data);
    return all;
  };
  const trigger = async (name: string, notes = 'send') => {
    const contact = await newContact(h, name, { assigneeId: member });
    await crm(h, 'PATCH', `/v1/contacts/${contact.id}`, { notes });
    return contact.id as string;
  };

  it('a send whose answer is lost (502 after the write) is found, not sent again', async () => {
    await fault({ kind: 'lost-answer', count: 1, route: SEND_ROUTE });
    const id = await trigger('Lost Lena');
    expect(await settled(id, 'follow-up')).toEqual([
      expect.objectContaining({
        status: 'succeeded',
        reason: 'found_after_unclear_outcome',
        run_status: 'succeeded',
      }),
      expect.objectContaining({ status: 'succeeded' }),
    ]);
    expect((await messagesOf(id)).map((m) => m.text)).toEqual(['Hello Lost Lena']);
  });

  it('a send whose answer comes after the timeout is found, not sent again', async () => {
    await fault({ kind: 'lost-answer', count: 1, latencyMs: 3000, route: SEND_ROUTE });
    const id = await trigger('Slow Sam');
    expect(await settled(id, 'follow-up')).toEqual([
      expect.objectContaining({ status: 'succeeded', reason: 'found_after_unclear_outcome' }),
      expect.objectContaining({ status: 'succeeded' }),
    ]);
    expect((await messagesOf(id)).map((m) => m.text)).toEqual(['Hello Slow Sam']);
  });

  it('a send answered 500 and not found is uncertain; retry-dead leaves it; an operator sends it again once', async () => {
    await fault({ kind: 'error500', count: 1, route: SEND_ROUTE });
    const id = await trigger('Unsure Uma');
    const [send, tag] = await settled(id, 'follow-up');
    expect(send).toMatchObject({
      status: 'uncertain',
      error_code: 'internal_error',
      run_status: 'uncertain',
    });
    expect(tag).toMatchObject({ status: 'skipped', reason: 'previous_action_uncertain' });
    expect(await messagesOf(id)).toEqual([]);

    expect((await admin('POST', '/admin/actions/retry-dead', { includeFailed: true })).body).toEqual({
      retried: 0,
      refused: [],
    });
    expect((await admin('POST', `/admin/actions/${send.id}/resolve`, { resolution: 'maybe' })).status).toBe(
      400,
    );
    const resolved = await admin('POST', `/admin/actions/${send.id}/resolve`, { resolution: 'send-again' });
    expect(resolved.body).toMatchObject({ resolution: 'send-again', continued: true });
    await eventually(async () => (await settled(id, 'follow-up'))[0].status === 'succeeded');
    expect(await settled(id, 'follow-up')).toEqual([
      expect.objectContaining({ status: 'succeeded', run_status: 'succeeded' }),
      expect.objectContaining({ status: 'succeeded' }),
    ]);
    expect((await messagesOf(id)).map((m) => m.text)).toEqual(['Hello Unsure Uma']);
    expect((await admin('POST', `/admin/actions/${send.id}/resolve`, { resolution: 'sent' })).status).toBe(
      404,
    );
  });

  it('a reaction whose answer is lost cannot be looked up: uncertain, and resolved as sent by an operator', async () => {
    await fault({ kind: 'lost-answer', count: 1, route: REACT_ROUTE });
    const contact = await newContact(h, 'React Rita', { assigneeId: member });
    await api(h.sandboxUrl, 'POST', '/_sandbox/inbound-message', {
      contactId: contact.id,
      text: 'react please',
    });
    const [react] = await settled(contact.id, 'thumbs-up');
    expect(react).toMatchObject({ status: 'uncertain', run_status: 'uncertain' });
    const counters = (await api(h.sandboxUrl, 'GET', '/_sandbox/counters')).body[REACT_ROUTE];
    const resolved = await admin('POST', `/admin/actions/${react.id}/resolve`, { resolution: 'sent' });
    expect(resolved.status).toBe(201);
    await eventually(async () => (await settled(contact.id, 'thumbs-up'))[0].run_status === 'succeeded');
    expect((await settled(contact.id, 'thumbs-up'))[0]).toMatchObject({
      status: 'succeeded',
      reason: 'resolved_as_sent',
    });
    expect((await api(h.sandboxUrl, 'GET', '/_sandbox/counters')).body[REACT_ROUTE]).toBe(counters);
    expect((await messagesOf(contact.id)).map((m) => m.reaction)).toEqual(['👍']);
  });

  it('a template whose answer is lost is found by its rendered text, not sent again', async () => {
    await fault({ kind: 'lost-answer', count: 1, route: TEMPLATE_ROUTE });
    const id = await trigger('Tom Template', 'template');
    expect(await settled(id, 'welcome-back')).toEqual([
      expect.objectContaining({ status: 'succeeded', reason: 'found_after_unclear_outcome' }),
    ]);
    expect((await messagesOf(id)).map((m) => m.text)).toEqual(['Hello Tom Template, welcome to Demo Co!']);
  });

  it('a template answered 500 is not mistaken for the same template sent with other parameters: uncertain', async () => {
    const contact = await newContact(h, 'Tina Template', { assigneeId: member });
    const conv = await crm(h, 'POST', '/v1/conversations', {
      contactId: contact.id,
      channelId: DEMO.channels.main,
    });
    // An agent sent the welcome template by hand a moment before the rule's attempt (inside the
    // lookup's window), with another parameter: it is not the rule's message.
    const byHand = await crm(h, 'POST', TEMPLATE_ROUTE.slice(5), {
      conversationId: conv.body.id,
      contactId: contact.id,
      templateId: DEMO.templates.welcome,
      bodyParameters: ['friend'],
    });
    expect(byHand.status).toBe(201);
    await fault({ kind: 'error500', count: 1, route: TEMPLATE_ROUTE });
    await crm(h, 'PATCH', `/v1/contacts/${contact.id}`, { notes: 'template' });
    expect(await settled(contact.id, 'welcome-back')).toEqual([
      expect.objectContaining({ status: 'uncertain', error_code: 'internal_error' }),
    ]);
    expect((await messagesOf(contact.id)).map((m) => m.text)).toEqual(['Hello friend, welcome to Demo Co!']);
  });
});
