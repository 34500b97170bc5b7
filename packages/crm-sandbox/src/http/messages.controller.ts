// /v1/messages (docs/CRM-API.md §4.4 plus the assumed list and send, A8 and A9) and /v1/message-templates.
import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { listTemplates, TEMPLATE_LIST_QUERY } from '../domain/directory.operations';
import {
  listMessages,
  MESSAGE_LIST_QUERY,
  reactToMessage,
  sendMessage,
  sendTemplate,
} from '../domain/messages.operations';
import { parseQuery } from '../domain/query-checks';
import type { OpContext } from '../domain/sandbox-state';
import { Ctx, RequireScope } from './sandbox-request';

@Controller('v1/messages')
export class MessagesController {
  @Get()
  @RequireScope('messages.read')
  list(@Ctx() ctx: OpContext, @Query() query: Record<string, unknown>) {
    return listMessages(ctx, parseQuery(query, MESSAGE_LIST_QUERY, ['conversationId']));
  }

  @Post()
  @RequireScope('messages.write')
  send(@Ctx() ctx: OpContext, @Body() body: unknown) {
    return sendMessage(ctx, body);
  }

  @Post('reactions')
  @HttpCode(200)
  @RequireScope('messages.write')
  react(@Ctx() ctx: OpContext, @Body() body: unknown) {
    return reactToMessage(ctx, body);
  }
}

@Controller('v1/message-templates')
export class MessageTemplatesController {
  @Get()
  @RequireScope('templates.read')
  list(@Ctx() ctx: OpContext, @Query() query: Record<string, unknown>) {
    return listTemplates(ctx, parseQuery(query, TEMPLATE_LIST_QUERY));
  }

  /** Sending a template is sending a message: messages.write, assignee and blocked rules. */
  @Post('send')
  @RequireScope('messages.write')
  send(@Ctx() ctx: OpContext, @Body() body: unknown) {
    return sendTemplate(ctx, body);
  }
}
