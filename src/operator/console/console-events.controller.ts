// One stored event (GET /console/events/:id): what processing decided and why each listening rule
// matched or not, recomputed on demand (an unmatched event keeps only a compact decision, issue 35).
import { Controller, Get, NotFoundException, Param, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { isUuid } from '@crm-rules/crm-contract';
import type { Request, Response } from 'express';
import { InboxEventsRepository, REPLAY_KEY_PREFIX } from '../../persistence/ledger/inbox-events.repository';
import { RunsRepository } from '../../persistence/ledger/runs.repository';
import { ContactNamesService } from '../../pipeline/contact-mirror/contact-names.service';
import { EventExplainer, type EventExplain } from '../../pipeline/matching/event-explainer.service';
import { ConsoleResponder } from './console-responder';
import { eventPage, type ShownEvent } from './pages/event-page';
import { EVENT_DECISIONS, EVENT_STATUSES, eventFilter, eventRows } from './pages/event-list';
import { MinRole } from '../roles/min-role.decorator';

/** Newest events on the list: enough for a page; narrow with the filters. */
const LIST_LIMIT = 200;

@ApiExcludeController()
@MinRole('viewer')
@Controller('console/events')
export class ConsoleEventsController {
  constructor(
    private readonly inbox: InboxEventsRepository,
    private readonly runs: RunsRepository,
    private readonly names: ContactNamesService,
    private readonly explainer: EventExplainer,
    private readonly pages: ConsoleResponder,
  ) {}

  @Get()
  async list(@Req() req: Request, @Res() res: Response, @Query() q: Record<string, string>) {
    const { filter, error } = eventFilter(q);
    const contact = typeof q.contact === 'string' ? q.contact.trim() : '';
    // An id as it is; anything else is a name, phone or email looked up in the mirror.
    const found = contact && !isUuid(contact) ? await this.names.search(contact) : undefined;
    const contacts = contact ? (found ? found.map((c) => c.id) : [contact]) : undefined;
    const rows = (error || contacts?.length === 0
      ? []
      : await this.inbox.views.list({ ...filter, contacts, limit: LIST_LIMIT })) as unknown as Omit<
      ShownEvent,
      'payload'
    >[];
    const names = await this.names.of(rows.flatMap((r) => (r.contactId ? [r.contactId] : [])));
    const view = {
      filter,
      contact,
      error,
      limit: LIST_LIMIT,
      noContact: found?.length === 0 ? contact : undefined,
      statuses: EVENT_STATUSES.map((value) => ({ value, selected: value === filter.status })),
      decisions: EVENT_DECISIONS.map((value) => ({
        value,
        label: value === 'unmatched' ? 'no rule matched' : 'a rule matched',
        selected: value === filter.decided,
      })),
      events: eventRows(rows, names),
    };
    this.pages.send(req, res, 'events', view, { title: 'Events', section: 'events' }, error ? 400 : 200);
  }

  @Get(':id')
  async event(@Req() req: Request, @Res() res: Response, @Param('id') id: string) {
    const shown = isUuid(id) ? ((await this.inbox.views.show(id)) as ShownEvent | undefined) : undefined;
    const row = shown && (await this.inbox.views.forExplain(id));
    if (!shown || !row) throw new NotFoundException(`no event ${id}`);
    let explain: EventExplain | undefined;
    let explainError: string | undefined;
    try {
      explain = await this.explainer.explain(row, row.event_key.startsWith(REPLAY_KEY_PREFIX));
    } catch (err) {
      // The one CRM read of a message event can fail (contact deleted, CRM down): the page still shows the event.
      explainError = err instanceof Error ? err.message : String(err);
    }
    const [contact, runs] = await Promise.all([
      shown.contactId ? this.names.one(shown.contactId) : undefined,
      this.runs.views.ofTriggerKey(`event:${id}`),
    ]);
    const view = eventPage(shown, contact, explain, runs, explainError);
    this.pages.send(req, res, 'event', view, { title: `Event ${shown.type}`, section: 'events' });
  }
}
