// Exports for the offline toolchain (crm-rules forecast / diff): the contact mirror in the
// contacts-file format and the inbox as recorded events, both NDJSON, streamed page by page.
import { BadRequestException, Controller, Get, Query, Res, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiQuery, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { DataSource } from 'typeorm';
import { contactLine, contactsHeader } from '../toolchain/contacts-file';
import { eventLine, eventsHeader } from '../toolchain/recorded-events';
import { AdminTokenGuard } from './admin-token.guard';
import { readInboxEventsForExport, readMirrorPage, type InboxExportCursor } from './export-queries';

const DAY_MS = 86_400_000;

@ApiTags('admin')
@ApiSecurity('admin')
@UseGuards(AdminTokenGuard)
@Controller('admin')
export class ExportsAdminController {
  constructor(private readonly db: DataSource) {}

  @Get('mirror/export')
  @ApiOperation({ summary: 'The contact mirror as a crm-rules contacts file (NDJSON), for forecasts' })
  async mirror(@Res() res: Response): Promise<void> {
    res.type('application/x-ndjson');
    res.write(contactsHeader('engine mirror', new Date()));
    for (let after = ''; ;) {
      const page = await readMirrorPage(this.db, after);
      if (page.length === 0) break;
      res.write(page.map(contactLine).join(''));
      after = page[page.length - 1].id;
    }
    res.end();
  }

  @Get('events/export')
  @ApiOperation({ summary: 'Inbox events received in [since, until) as recorded events (NDJSON), for diff' })
  @ApiQuery({ name: 'since', required: false, description: 'ISO date-time; default 7 days before until' })
  @ApiQuery({ name: 'until', required: false, description: 'ISO date-time; default now' })
  async events(
    @Res() res: Response,
    @Query('since') sinceText?: string,
    @Query('until') untilText?: string,
  ): Promise<void> {
    const until = dateParam('until', untilText) ?? new Date();
    const since = dateParam('since', sinceText) ?? new Date(until.getTime() - 7 * DAY_MS);
    res.type('application/x-ndjson');
    res.write(
      eventsHeader('engine inbox', new Date(), { since: since.toISOString(), until: until.toISOString() }),
    );
    let after: InboxExportCursor | undefined;
    for (;;) {
      const page = await readInboxEventsForExport(this.db, { since, until }, after);
      if (page.events.length === 0) break;
      res.write(page.events.map(eventLine).join(''));
      after = page.last;
    }
    res.end();
  }
}

function dateParam(name: string, text: string | undefined): Date | undefined {
  if (text === undefined || text === '') return undefined;
  const d = new Date(text);
  if (Number.isNaN(d.getTime())) throw new BadRequestException(`${name}: not an ISO 8601 date-time`);
  return d;
}
