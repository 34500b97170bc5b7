// POST /admin/rules/:id/run: a rule run by hand for one contact, through the admin token (the
// caller is recorded as "admin-api"). The work is ManualRunsService's, shared with the console.
import {
  BadRequestException,
  Body,
  Controller,
  HttpCode,
  HttpException,
  Param,
  Post,
  Req,
} from '@nestjs/common';
import { ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { ManualRunsService } from '../../pipeline/admission/manual-runs/manual-runs.service';
import { ADMIN_API_CALLER } from '../../pipeline/admission/manual-runs/manual-trigger';
import type { Request } from 'express';
import { MinRole } from '../roles/min-role.decorator';
import { manualCaller, type WithPrincipal } from '../access/principal';

@ApiTags('admin')
@ApiSecurity('admin')
@MinRole('viewer')
@Controller('admin/rules')
export class ManualRunsAdminController {
  constructor(private readonly manual: ManualRunsService) {}

  @MinRole('operator')
  @Post(':id/run')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Run a rule for one contact: { contactId, dryRun?, idempotencyKey? }. A dry run answers the explain and ' +
      'an idempotencyKey, and writes nothing; otherwise a run with trigger manual goes through admission and ' +
      'the actions queue. A second run with the same idempotencyKey answers the first run (repeated: true) and does nothing',
  })
  async run(@Req() req: Request & WithPrincipal, @Param('id') id: string, @Body() body: unknown) {
    const { contactId, dryRun, idempotencyKey } = (body ?? {}) as Record<string, unknown>;
    if (
      typeof contactId !== 'string' ||
      (dryRun !== undefined && typeof dryRun !== 'boolean') ||
      (idempotencyKey !== undefined && typeof idempotencyKey !== 'string')
    )
      throw new BadRequestException(
        'body must be { contactId: string, dryRun?: boolean, idempotencyKey?: string }',
      );
    const result = await this.manual.run(id, contactId, {
      dryRun: dryRun === true,
      by: manualCaller(req.principal, ADMIN_API_CALLER),
      idempotencyKey,
    });
    if (!result.ok)
      throw new HttpException(
        { statusCode: result.refusal.status, error: result.refusal.code, message: result.refusal.message },
        result.refusal.status,
      );
    return result;
  }
}
