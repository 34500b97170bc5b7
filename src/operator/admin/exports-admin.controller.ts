// Exports for the offline toolchain (crm-rules forecast / diff): the contact mirror in the
// contacts-file format and the inbox as recorded events, both NDJSON, streamed page by page so
// an export of any size takes constant memory.
import { clipJsonDepth } from '../../language/net/json-depth';
import { BadRequestException, Controller, Get, Logger, Query, Res } from '@nestjs/common';
import { ApiOperation, ApiQuery, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { ContactMirrorService } from '../../pipeline/contact-mirror/contact-mirror.service';
import {
  InboxEventsRepository,
  type InboxExportCursor,
} from '../../persistence/ledger/inbox-events.repository';
import { contactLine, contactsHeader } from '../../tooling/toolchain/contacts-file';
import { eventLine, eventsHeader, recordedFromInbox } from '../../tooling/toolchain/recorded-events';
import { MinRole } from '../roles/min-role.decorator';

const PAGE = 1000;
const DAY_MS = 86_400_000;

@ApiTags('admin')
@ApiSecurity('admin')
@MinRole('viewer')
@Controller('admin')
export class ExportsAdminController {
  private readonly logger = new Logger(ExportsAdminController.name);

  constructor(
    private readonly mirror: ContactMirrorService,
    private readonly inbox: InboxEventsRepository,
  ) {}

  @Get('mirror/export')
  @ApiOperation({ summary: 'The contact mirror as a crm-rules contacts file (NDJSON), for forecasts' })
  async mirrorExport(@Res() res: Response): Promise<void> {
    await this.stream(res, 'mirror', async (write) => {
      await write(contactsHeader('engine mirror', new Date()));
      for (let after = ''; ;) {
        const page = await this.mirror.exportPage(after, PAGE);
        if (page.length === 0) return;
        await write(page.map(contactLine).join(''));
        after = page[page.length - 1].id;
      }
    });
  }

  @Get('events/export')
  @ApiOperation({ summary: 'Inbox events received in [since, until) as recorded events (NDJSON), for diff' })
  @ApiQuery({ name: 'since', required: false, description: 'ISO date-time; default 7 days before until' })
  @ApiQuery({ name: 'until', required: false, description: 'ISO date-time; default now' })
  async eventsExport(
    @Res() res: Response,
    @Query('since') sinceText?: string,
    @Query('until') untilText?: string,
  ): Promise<void> {
    const until = dateParam('until', untilText) ?? new Date();
    const since = dateParam('since', sinceText) ?? new Date(until.getTime() - 7 * DAY_MS);
    const range = { since: since.toISOString(), until: until.toISOString() };
    await this.stream(res, 'events', async (write) => {
      await write(eventsHeader('engine inbox', new Date(), range));
      let after: InboxExportCursor | undefined;
      for (;;) {
        const rows = await this.inbox.views.pageForExport({ since, until }, after, PAGE);
        if (rows.length === 0) return;
        // A row stored before intake refused deep payloads would cut the export: its deep part is.
        await write(
          rows.map((r) => eventLine(recordedFromInbox({ ...r, payload: clipJsonDepth(r.payload) }))).join(''),
        );
        after = { receivedAt: rows[rows.length - 1].cursor_at, id: rows[rows.length - 1].id };
      }
    });
  }

  /** Once the first line is out the status is sent: a failure can only cut the stream, and is logged. */
  private async stream(
    res: Response,
    what: string,
    body: (write: (text: string) => Promise<void>) => Promise<void>,
  ): Promise<void> {
    res.type('application/x-ndjson');
    const write = (text: string) =>
      new Promise<void>((resolve) => (res.write(text) ? resolve() : res.once('drain', resolve)));
    try {
      await body(write);
      res.end();
    } catch (err) {
      this.logger.error(`${what} export failed: ${(err as Error).message}`);
      res.destroy(err as Error);
    }
  }
}

function dateParam(name: string, text: string | undefined): Date | undefined {
  if (text === undefined || text === '') return undefined;
  const d = new Date(text);
  if (Number.isNaN(d.getTime())) throw new BadRequestException(`${name}: not an ISO 8601 date-time`);
  return d;
}
