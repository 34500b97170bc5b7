import {
  BadRequestException,
  Body,
  Controller,
  Get,
  HttpCode,
  HttpException,
  NotFoundException,
  Param,
  Post,
  Query,
  Req,
} from '@nestjs/common';
import { ApiOperation, ApiQuery, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { MinRole } from '../roles/min-role.decorator';
import { actorOf, type WithPrincipal } from '../access/principal';
import { DeployService, type DeployAnswer } from '../../runtime/rule-set/deploy/deploy.service';

type Caller = Request & WithPrincipal;

const limitOf = (raw: string | undefined) => Math.min(Math.max(Number(raw ?? 50) || 50, 1), 500);

/** The deployed rule-set versions (issue 31): what `crm-rules deploy` calls. */
@ApiTags('admin')
@ApiSecurity('admin')
@MinRole('viewer')
@Controller('admin/deploy')
export class DeployAdminController {
  constructor(private readonly deploy: DeployService) {}

  @Get()
  @ApiOperation({ summary: 'The live version, the pin, the source, this process and git reachability' })
  status() {
    return this.deploy.status();
  }

  @Get('history')
  @ApiOperation({ summary: 'Versions newest first, each with its result and validation report' })
  @ApiQuery({ name: 'limit', required: false })
  history(@Query('limit') limit?: string) {
    return this.deploy.history(limitOf(limit));
  }

  @Get('audit')
  @ApiOperation({ summary: 'Who did what: activations, refusals, rollbacks, pins, git outages' })
  @ApiQuery({ name: 'limit', required: false })
  audit(@Query('limit') limit?: string) {
    return this.deploy.audit(limitOf(limit));
  }

  @Get('diff')
  @ApiOperation({ summary: 'Rules and files that differ between two versions (?from=&to=)' })
  async diff(@Query('from') from?: string, @Query('to') to?: string) {
    if (!from || !to) throw new BadRequestException('from and to are commits');
    const diff = await this.deploy.diff(from, to);
    if (!diff) throw new NotFoundException('no such version');
    return diff;
  }

  @Get('versions/:commit')
  @ApiOperation({ summary: 'One version with its files (the YAML as it was) and its report' })
  async version(@Param('commit') commit: string) {
    const found = await this.deploy.version(commit);
    if (!found) throw new NotFoundException(`no version ${commit}`);
    return found;
  }

  @MinRole('admin')
  @Post('rollback')
  @HttpCode(200)
  @ApiOperation({ summary: 'Activate { commit } or, without one, the version active before this one' })
  async rollback(@Req() req: Caller, @Body() body: unknown) {
    const commit = (body as { commit?: unknown } | undefined)?.commit;
    if (commit !== undefined && typeof commit !== 'string')
      throw new BadRequestException('commit is a string');
    return answer(await this.deploy.rollback(commit, actorOf(req.principal)));
  }

  @MinRole('admin')
  @Post('pin')
  @HttpCode(200)
  @ApiOperation({ summary: 'Activate { commit } if needed and hold it, whatever is pushed, until unpin' })
  async pin(@Req() req: Caller, @Body() body: unknown) {
    const commit = (body as { commit?: unknown } | undefined)?.commit;
    if (typeof commit !== 'string') throw new BadRequestException('body must be { commit: string }');
    return answer(await this.deploy.pin(commit, actorOf(req.principal)));
  }

  @MinRole('admin')
  @Post('unpin')
  @HttpCode(200)
  @ApiOperation({ summary: 'Lift the pin; the newest valid version fetched meanwhile becomes active' })
  async unpin(@Req() req: Caller) {
    return answer(await this.deploy.unpin(actorOf(req.principal)));
  }

  @MinRole('admin')
  @Post('fetch')
  @HttpCode(202)
  @ApiOperation({ summary: 'Fetch the followed ref now (the job a push webhook starts)' })
  async fetch(@Req() req: Caller) {
    return answer(await this.deploy.fetch(actorOf(req.principal)));
  }
}

function answer(result: DeployAnswer) {
  if (!result.ok)
    throw new HttpException({ statusCode: result.status, message: result.message }, result.status);
  return result;
}
