// Small display helpers shared by the page builders. Pure.
import { manualRunBy } from '../../../pipeline/admission/manual-runs/manual-trigger';
import { actionLabel } from '../../../language/catalogue/catalogue';
import type { RuleAction } from '../../../language/rules/format/rule-types';
import type { Tone } from './timeline';

export function when(d: Date | string | null | undefined): string {
  if (!d) return '—';
  return new Date(d).toISOString().replace('T', ' ').replace('Z', '');
}

/** `skipped`: a customer message of the run was not sent (language/policy/message-skips.ts). */
export function statusTone(status: string, reason?: string | null, skipped = false): Tone {
  if (status === 'succeeded') return skipped ? 'warn' : 'ok';
  if (['failed', 'dead', 'uncertain'].includes(status)) return 'bad';
  if (status === 'suppressed') return reason === 'paused' ? 'warn' : 'muted';
  if (status === 'not_matched' || status === 'skipped') return 'muted';
  return 'info';
}

/** `suppressed` carries its reason; a paused rule's run reads `paused`. */
export function statusText(status: string, reason: string | null, skipped = false): string {
  if (status === 'suppressed' && reason === 'paused') return 'paused';
  if (status === 'succeeded' && skipped) return 'succeeded with skips';
  return reason && status === 'suppressed' ? `suppressed: ${reason}` : status;
}

export function triggerText(triggerKey: string, eventType?: string | null): string {
  if (triggerKey.startsWith('event:'))
    return `event ${eventType ?? ''} ${triggerKey.slice(6)}`.replace('  ', ' ');
  if (triggerKey.startsWith('sweep-leave:'))
    return `left segment (sweep ${triggerKey.split(':').slice(2).join(':')})`;
  if (triggerKey.startsWith('sweep:')) return `segment sweep ${triggerKey.split(':').slice(2).join(':')}`;
  const by = manualRunBy(triggerKey);
  if (by) return `manual run by ${by}`;
  return triggerKey;
}

export const contactHref = (id: string) => `/console/contacts/${encodeURIComponent(id)}`;

/** A contact id with what the mirror knows of it: its name and phone for the pages. */
export function contactShown(id: string, names: Map<string, { name: string; phone: string }>) {
  const c = names.get(id);
  return {
    contactId: id,
    contactHref: contactHref(id),
    contactName: c?.name ?? '',
    contactPhone: c ? `+${c.phone}` : '',
  };
}

/** A datetime-local input value (UTC) from a Date, and back. */
export function toInputTime(d?: Date): string {
  return d ? d.toISOString().slice(0, 16) : '';
}

export function fromInputTime(raw: unknown): Date | undefined | 'invalid' {
  if (typeof raw !== 'string' || raw === '') return undefined;
  const d = new Date(/Z|[+-]\d\d:\d\d$/.test(raw) ? raw : `${raw}Z`);
  return Number.isNaN(d.getTime()) ? 'invalid' : d;
}

/** The catalogue's label; a stored action whose type left the catalogue still shows. */
export function actionShown(action: unknown): string {
  try {
    return actionLabel(action as RuleAction);
  } catch {
    return `${(action as { type?: string })?.type ?? 'unknown'} (not in the catalogue)`;
  }
}
