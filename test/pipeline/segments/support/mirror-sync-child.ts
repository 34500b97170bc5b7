// Child process of the crash test: refreshes the mirror (a full sync) until it is killed.
import { loadConfig } from '../../../../src/runtime/config/load-config';
import { ContactMirrorService } from '../../../../src/pipeline/contact-mirror/contact-mirror.service';
import { mirrorContext } from './mirror-context';

async function main(): Promise<void> {
  const app = await mirrorContext(loadConfig());
  await app.get(ContactMirrorService).refresh();
  await app.close();
}

main().catch((err) => {
  process.stderr.write(`mirror sync child failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
