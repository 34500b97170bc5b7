// Server-sent events for the live pages: one shared feed per kind, whatever the number of tabs.
// A stream ends with its session (logout, idle timeout, token change): see ConsoleAuth.sessionEnded.
import { Controller, Get, type MessageEvent, Req, Sse } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { map, type Observable, takeUntil } from 'rxjs';
import { ConsoleAuth, type ConsoleRequest } from './auth/console-auth';
import { BudgetFeed } from './live/budget-feed.service';
import { formatDuration } from './live/backlog-eta';
import { OverviewFeed } from './live/overview-feed.service';
import { MinRole } from '../roles/min-role.decorator';

@ApiExcludeController()
@MinRole('viewer')
@Controller('console')
export class ConsoleStreamController {
  constructor(
    private readonly overview: OverviewFeed,
    private readonly budget: BudgetFeed,
    private readonly auth: ConsoleAuth,
  ) {}

  @Sse('stream/overview')
  overviewStream(@Req() req: ConsoleRequest): Observable<MessageEvent> {
    return this.overview.stream.pipe(
      map((data) => ({ data })),
      takeUntil(this.auth.sessionEnded(req)),
    );
  }

  @Sse('stream/budget')
  budgetStream(@Req() req: ConsoleRequest): Observable<MessageEvent> {
    return this.budget.stream.pipe(
      takeUntil(this.auth.sessionEnded(req)),
      map((s) => ({
        data: {
          ...s,
          pause: s.pauseRemainingMs ? formatDuration(s.pauseRemainingMs) : 'none',
          eta: { interactive: formatDuration(s.eta.interactiveMs), bulk: formatDuration(s.eta.bulkMs) },
        },
      })),
    );
  }

  /** The samples kept so far: a page opened now plots the recent past at once. */
  @Get('budget/history')
  history() {
    return { samples: this.budget.recent() };
  }
}
