// /v1/conversations: docs/CRM-API.md §4.2 plus the assumed count (A7).
import { Body, Controller, Get, Param, Post, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import {
  CONVERSATION_COUNT_QUERY,
  CONVERSATION_LIST_QUERY,
  countConversations,
  listConversations,
  listMedia,
  MEDIA_LIST_QUERY,
  openConversation,
} from '../domain/conversations.operations';
import { checkPathIds } from '../domain/input-checks';
import { parseQuery } from '../domain/query-checks';
import type { OpContext } from '../domain/sandbox-state';
import { Ctx, RequireScope } from './sandbox-request';

@Controller('v1/conversations')
export class ConversationsController {
  @Get()
  @RequireScope('conversations.read')
  list(@Ctx() ctx: OpContext, @Query() query: Record<string, unknown>) {
    return listConversations(ctx, parseQuery(query, CONVERSATION_LIST_QUERY));
  }

  @Get('count')
  @RequireScope('conversations.read')
  count(@Ctx() ctx: OpContext, @Query() query: Record<string, unknown>) {
    return countConversations(ctx, parseQuery(query, CONVERSATION_COUNT_QUERY));
  }

  /** 201 with a new conversation, 200 with the one already open for the pair. */
  @Post()
  @RequireScope('conversations.write')
  open(@Ctx() ctx: OpContext, @Body() body: unknown, @Res({ passthrough: true }) res: Response) {
    const { created, conversation } = openConversation(ctx, body);
    res.status(created ? 201 : 200);
    return conversation;
  }

  @Get(':conversationId/media')
  @RequireScope('conversations.read')
  media(
    @Ctx() ctx: OpContext,
    @Param('conversationId') conversationId: string,
    @Query() query: Record<string, unknown>,
  ) {
    checkPathIds({ conversationId });
    return listMedia(ctx, conversationId, parseQuery(query, MEDIA_LIST_QUERY));
  }
}
