// What of a custom source's verified delivery goes into inbox_events: its id (deduplication, per
// source) and the stored text (the sender's exact body under `data`). Pure: no Nest, no I/O.
import { createHash } from 'node:crypto';
import { CUSTOM_EVENT_PREFIX } from '../../language/rules/format/custom-event-kind';
import { readPointer, type CustomSourceDeclaration } from '../../language/rules/format/custom-sources';

/**
 * `<source>:<payload's event-id>`, else `<source>:sha256:<hash of the body>`. Only what the
 * signature covers (the body) names the event: an unsigned header (`X-Event-Id`) would let
 * anyone holding one signed delivery resend it as new events within the signature's tolerance.
 */
export function customEventId(
  source: Pick<CustomSourceDeclaration, 'name' | 'event-id'>,
  payload: unknown,
  rawBody: Buffer,
): string {
  const fromPayload = source['event-id'] ? readPointer(payload, source['event-id']) : undefined;
  const id =
    (typeof fromPayload === 'string' && fromPayload !== '') || typeof fromPayload === 'number'
      ? String(fromPayload)
      : `sha256:${createHash('sha256').update(rawBody).digest('hex')}`;
  return `${source.name}:${id}`;
}

/** The inbox row's payload: id and type beside the body exactly as signed (`bodyText` is valid JSON). */
export function customInboxPayload(
  sourceName: string,
  id: string,
  bodyText: string,
): { type: string; text: string } {
  const type = `${CUSTOM_EVENT_PREFIX}${sourceName}`;
  return { type, text: `{"id":${JSON.stringify(id)},"type":${JSON.stringify(type)},"data":${bodyText}}` };
}
