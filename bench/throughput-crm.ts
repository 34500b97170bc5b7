// The CRM of bench:throughput, in its own process as the real CRM would be: the sandbox with the
// demo organization plus generated contacts (bench/segments-fixture.ts), its rate limit set by the
// parent. Sends its address to the parent once listening.
import { startSandbox } from '@crm-rules/crm-sandbox';
import { segmentsFixture } from './segments-fixture';

const [contacts, limit, windowMs] = process.argv.slice(2).map(Number);

startSandbox({ port: 0, fixture: segmentsFixture(contacts, new Date()), rateLimit: { limit, windowMs } })
  .then((sandbox) => {
    process.send!({ url: sandbox.url });
    process.once('SIGTERM', () => void sandbox.close().then(() => process.exit(0)));
    process.once('disconnect', () => process.exit(0)); // the benchmark is gone: so is its CRM
  })
  .catch((err) => {
    console.error(err);
    process.exit(1);
  });
