// Issue 30: logs carry ids, not personal data. A custom delivery whose contact is not found
// (phone, email) and a failing query (TypeORM's QueryFailedError, with its SQL and parameters)
// are logged by a running engine; the captured lines hold neither the phone, the email nor the SQL.
import { Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { signatureHeader } from '../../src/language/net/verify-signature';
import { admin, eventually, Harness, startHarness } from '../support/engine-harness';
import { request } from '../support/http';
import { capturedLogging, LogCapture } from './console/log-capture';

const SECRET = 'whsec_log_redaction_e2e_0123456789abcdef';
const SOURCES = `sources:
  - name: byphone
    secret: SOURCE_SECRET_LOG_E2E
    schema: { type: object }
    contact: { by: phone, from: /phone }
  - name: byemail
    secret: SOURCE_SECRET_LOG_E2E
    schema: { type: object }
    contact: { by: email, from: /email }
`;
const RULES = `rule: by-phone
on: custom.byphone
do: [{ add-tag: vip }]
---
rule: by-email
on: custom.byemail
do: [{ add-tag: vip }]
`;
const PHONE = '+49 151 98765432';
const EMAIL = 'greta.private@example.org';

describe('logs carry ids, not personal data', () => {
  let h: Harness;
  const logs = new LogCapture();

  beforeAll(async () => {
    process.env.SOURCE_SECRET_LOG_E2E = SECRET;
    h = await startHarness({
      rules: { 'sources.yaml': SOURCES, 'rules.yaml': RULES },
      subscribe: false,
      ...capturedLogging(logs, { RULES_WATCH: 'false' }, 'info'),
    });
  });
  afterAll(async () => {
    delete process.env.SOURCE_SECRET_LOG_E2E;
    await h?.stop();
  });

  it('a contact_not_found line names the event, not the phone or email', async () => {
    for (const [source, body] of [
      ['byphone', JSON.stringify({ phone: PHONE })],
      ['byemail', JSON.stringify({ email: EMAIL })],
    ]) {
      const res = await request(`${h.url}/hooks/${source}`, 'POST', {
        rawBody: body,
        headers: { 'x-service-signature': signatureHeader(SECRET, body) },
      });
      expect(res.status).toBe(200);
      await eventually(async () => {
        const event = await admin(h, 'GET', `/admin/events/${res.body.id}`);
        return event.body?.outcome === 'contact_not_found';
      });
      await eventually(async () => logs.text().includes(`${res.body.id}: contact not found`));
    }
    expect(logs.leaked([PHONE, '4915198765432', '98765432', EMAIL])).toEqual([]);
  });

  it('a QueryFailedError line carries neither its SQL text nor its parameters', async () => {
    const err = await h.app
      .get(DataSource)
      .query(`SELECT id FROM inbox_events WHERE id = $1::uuid AND type = $2`, [EMAIL, PHONE])
      .then(
        () => undefined,
        (e: Error) => e,
      );
    expect(err?.constructor.name).toBe('QueryFailedError');
    const logger = new Logger('LogRedactionE2E');
    logger.error(err);
    logger.warn(`lookup failed: ${String(err)}`);
    await eventually(async () => logs.text().includes('LogRedactionE2E'));
    const lines = logs
      .text()
      .split('\n')
      .filter((l) => l.includes('LogRedactionE2E'));
    expect(lines.length).toBeGreaterThanOrEqual(2);
    expect(lines.join('\n')).not.toMatch(/SELECT id FROM inbox_events/);
    expect(logs.leaked([EMAIL, PHONE])).toEqual([]);
  });
});
