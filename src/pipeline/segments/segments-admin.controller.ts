import {
  BadRequestException,
  Controller,
  DefaultValuePipe,
  Get,
  HttpCode,
  NotFoundException,
  Param,
  ParseIntPipe,
  Post,
  Query,
} from '@nestjs/common';
import { ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { MinRole } from '../../operator/roles/min-role.decorator';
import { UnknownNameError } from '../../language/crm-terms/directory-match';
import { RuleSetService } from '../../runtime/rule-set/rule-set.service';
import { ContactMirrorService } from '../contact-mirror/contact-mirror.service';
import { PlanError, SegmentPlanService } from './plan/segment-plan.service';
import { SegmentFilterError } from '../../language/segment-filters/segment-filter-error';
import { SweepQueueService } from './sweeps/sweep-queue.service';
import { SweepStatusService } from './sweeps/sweep-status.service';

@ApiTags('admin')
@ApiSecurity('admin')
@MinRole('viewer')
@Controller('admin')
export class SegmentsAdminController {
  constructor(
    private readonly plans: SegmentPlanService,
    private readonly status: SweepStatusService,
    private readonly queue: SweepQueueService,
    private readonly mirror: ContactMirrorService,
    private readonly rules: RuleSetService,
  ) {}

  @Get('rules/:id/plan')
  @ApiOperation({
    summary:
      'What the next sweep of a segment rule would do (who enters / leaves, actions, CRM calls, time); writes nothing',
  })
  async plan(
    @Param('id') id: string,
    @Query('sample', new DefaultValuePipe(50), ParseIntPipe) sample: number,
  ) {
    try {
      return await this.plans.plan(id, Math.min(Math.max(sample, 0), 1000));
    } catch (err) {
      if (err instanceof PlanError)
        throw err.kind === 'not_found'
          ? new NotFoundException(err.message)
          : new BadRequestException(err.message);
      if (err instanceof SegmentFilterError || err instanceof UnknownNameError) {
        throw new BadRequestException(err.message);
      }
      throw err;
    }
  }

  @MinRole('operator')
  @Post('rules/:id/sweep')
  @HttpCode(202)
  @ApiOperation({ summary: 'Queue a sweep of a segment rule now (outside its schedule)' })
  async sweepNow(@Param('id') id: string) {
    const rule = this.rules.current()?.rule(id);
    if (!rule) throw new NotFoundException(`no rule "${id}" in the loaded rule set`);
    if (rule.trigger.kind !== 'schedule')
      throw new BadRequestException(`rule "${id}" is not a segment rule (on: schedule)`);
    const tick = new Date();
    const jobId = await this.queue.enqueue(id, tick, 'manual');
    return { ruleId: id, tickAt: tick.toISOString(), jobId };
  }

  @Get('sweeps')
  @ApiOperation({
    summary: 'Latest sweep of every segment rule with its progress and ETA, and the contact mirror freshness',
  })
  latest() {
    return this.status.latest();
  }

  @Get('sweeps/:ruleId')
  @ApiOperation({ summary: 'Recent sweeps of one rule' })
  async history(
    @Param('ruleId') ruleId: string,
    @Query('limit', new DefaultValuePipe(20), ParseIntPipe) limit: number,
  ) {
    return { data: await this.status.history(ruleId, limit) };
  }

  @Get('mirror')
  @ApiOperation({
    summary: 'Freshness of the contact mirror: full sync cursor, watermark, last refreshes and events',
  })
  freshness() {
    return this.mirror.freshness();
  }
}
