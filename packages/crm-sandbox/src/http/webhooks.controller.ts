// /v1/webhooks: docs/CRM-API.md §4.9 plus the assumed list and delete (A16).
import { Body, Controller, Delete, Get, Param, Post, Query } from '@nestjs/common';
import { checkBody, checkPathIds } from '../domain/input-checks';
import { parseQuery } from '../domain/query-checks';
import type { OpContext } from '../domain/sandbox-state';
import { createWebhook, deleteWebhook, listWebhooks } from '../domain/webhooks.operations';
import { Ctx, RequireScope } from './sandbox-request';

@Controller('v1/webhooks')
export class WebhooksController {
  @Post()
  @RequireScope('webhooks.write')
  create(@Ctx() ctx: OpContext, @Body() body: unknown) {
    return createWebhook(ctx, body);
  }

  @Get()
  @RequireScope('webhooks.read')
  list(@Ctx() ctx: OpContext, @Query() query: Record<string, unknown>) {
    parseQuery(query, {});
    return listWebhooks(ctx);
  }

  @Delete(':webhookId')
  @RequireScope('webhooks.write')
  remove(@Ctx() ctx: OpContext, @Param('webhookId') webhookId: string, @Body() body: unknown) {
    checkPathIds({ webhookId });
    checkBody(body, {});
    return deleteWebhook(ctx, webhookId);
  }
}
