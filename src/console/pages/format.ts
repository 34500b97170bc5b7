// Small display helpers shared by the page builders. Pure.
import { manualRunBy } from '../../pipeline/admission/manual-runs/manual-trigger';
import { actionLabel } from '../../language/catalogue/catalogue';
import type { RuleAction } from '../../language/rules/rule-types';
import type { Tone } from './timeline';

export function when(d: Date | string | null | undefined): string {
  if (!d) return '—';
  return new Date(d).toISOString().replace('T', ' ').replace('Z', '');
}

export function statusTone(status: string, reason?: string | null): Tone {
  if (status === 'succeeded') return 'ok';
  if (['failed', 'dead', 'uncertain'].includes(status)) return 'bad';
  if (status === 'suppressed') return reason === 'paused' ? 'warn' : 'muted';
  if (status === 'not_matched' || status === 'skipped') return 'muted';
  return 'info';
}

/** `suppressed` carries its reason; a paused rule's run reads `paused`. */
export function statusText(status: string, reason: string | null): string {
  if (status === 'suppressed' && reason === 'paused') return 'paused';
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
