// Where `forecast` and `diff` find the messages contacts already got (the caps count them): a
// recorded file (--prior-messages), else the engine's ledger (--ledger URL, or DATABASE_URL when set;
// --no-ledger to skip it), else none known. One owner of the options and of the lookup, so both
// commands read them alike. The ledger reader (and pg with it) is loaded only when used.
import type { Command } from 'commander';
import type { MessagingPolicy } from '../../language/policy/messaging-policy';
import {
  readPriorMessagesFile,
  writePriorMessagesFile,
  type PriorMessages,
} from '../toolchain/prior-messages';

export interface PriorMessagesOptions {
  priorMessages?: string;
  /** A database URL, or false with --no-ledger. */
  ledger?: string | false;
  recordPriorMessages?: string;
}

/** The options on a command: `counted` says what the caps count them for. */
export function addPriorMessagesOptions(command: Command, counted: string): Command {
  return command
    .option(
      '--ledger <url>',
      `the engine's database: ${counted} count the messages contacts already got (default DATABASE_URL when set)`,
    )
    .option('--no-ledger', 'do not read the ledger even when DATABASE_URL is set')
    .option(
      '--prior-messages <file>',
      'messages already sent, recorded by --record-prior-messages (instead of the ledger)',
    )
    .option(
      '--record-prior-messages <file>',
      'write the prior messages read (for a run without the database)',
    );
}

export type PriorLookup = (contactIds: readonly string[]) => Promise<PriorMessages>;

export function priorMessagesSource(
  opts: PriorMessagesOptions,
  policy: MessagingPolicy | undefined,
  now: Date,
  env: NodeJS.ProcessEnv,
): PriorLookup | undefined {
  const record = async (p: PriorMessages) => {
    if (opts.recordPriorMessages && p.source !== 'none')
      await writePriorMessagesFile(opts.recordPriorMessages, p, now);
    return p;
  };
  if (opts.priorMessages) {
    const file = opts.priorMessages;
    return async () => record(await readPriorMessagesFile(file));
  }
  const url = opts.ledger === false ? undefined : (opts.ledger ?? env.DATABASE_URL);
  if (!url || !policy) return undefined;
  return async (ids) => {
    const { ledgerPriorMessages } = await import('../toolchain/ledger-prior-messages');
    return record(await ledgerPriorMessages(url, policy, now, ids));
  };
}
