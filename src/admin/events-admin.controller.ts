import {
  Controller,
  Get,
  NotFoundException,
  Param,
  ParseUUIDPipe,
  Post,
  Query,
  UseGuards,
} from '@nestjs/common';
import { ApiOperation, ApiQuery, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { randomUUID } from 'node:crypto';
import { InboxEventsRepository } from '../ledger/inbox-events.repository';
import { EventsQueue } from '../queues/events-queue.service';
import { AdminTokenGuard } from './admin-token.guard';

const EVENT_STATUSES = ['pending', 'processed', 'failed'];

@ApiTags('admin')
@ApiSecurity('admin')
@UseGuards(AdminTokenGuard)
@Controller('admin/events')
export class EventsAdminController {
  constructor(
    private readonly inbox: InboxEventsRepository,
    private readonly events: EventsQueue,
  ) {}

  @Get()
  @ApiOperation({ summary: 'List stored events, newest first (status=failed: those that need an operator)' })
  @ApiQuery({ name: 'status', required: false, enum: EVENT_STATUSES })
  @ApiQuery({ name: 'type', required: false, description: 'event kind, e.g. message.received' })
  @ApiQuery({ name: 'limit', required: false, description: '1..500, default 50' })
  async list(@Query('status') status?: string, @Query('type') type?: string, @Query('limit') limit?: string) {
    const rows = await this.inbox.list({
      status,
      type,
      limit: Math.min(Math.max(Number(limit) || 50, 1), 500),
    });
    return { data: rows };
  }

  @Get(':id')
  @ApiOperation({ summary: 'One stored event with its payload, attempts, last error and outcome' })
  async show(@Param('id', ParseUUIDPipe) id: string) {
    const event = await this.inbox.show(id);
    if (!event) throw new NotFoundException(`event ${id} not found`);
    return event;
  }

  @Post(':id/replay')
  @ApiOperation({
    summary:
      'A failed event: back to pending with its attempts reset, processed again. Any other: evaluated again as a new trigger (new runs; once/cooldown still apply)',
  })
  async replay(@Param('id', ParseUUIDPipe) id: string) {
    if (await this.inbox.resetFailed(id)) {
      // ensure, not add: the job that ended it failed may still be kept under the same id.
      await this.events.ensure(id);
      return { replayedAs: id, reset: true };
    }
    const copy = await this.inbox.insertReplayCopy(id, randomUUID());
    if (!copy) throw new NotFoundException(`event ${id} not found`);
    await this.events.add(copy);
    return { replayedAs: copy, reset: false };
  }
}
