// /v1/contacts: docs/CRM-API.md §4.3 plus the assumed contact operations (A2–A6).
import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Query } from '@nestjs/common';
import { addTag, removeTag, setBlocked, setStage } from '../domain/contact-actions.operations';
import { CONTACT_LIST_QUERY } from '../domain/contact-queries';
import {
  createContact,
  deleteContact,
  getContact,
  listContacts,
  updateContact,
} from '../domain/contacts.operations';
import { checkBody, checkPathIds } from '../domain/input-checks';
import { parseQuery } from '../domain/query-checks';
import type { OpContext } from '../domain/sandbox-state';
import { Ctx, RequireScope } from './sandbox-request';

@Controller('v1/contacts')
export class ContactsController {
  @Get()
  @RequireScope('contacts.read')
  list(@Ctx() ctx: OpContext, @Query() query: Record<string, unknown>) {
    return listContacts(ctx, parseQuery(query, CONTACT_LIST_QUERY));
  }

  @Post()
  @RequireScope('contacts.write')
  create(@Ctx() ctx: OpContext, @Body() body: unknown) {
    return createContact(ctx, body);
  }

  @Get(':contactId')
  @RequireScope('contacts.read')
  get(@Ctx() ctx: OpContext, @Param('contactId') contactId: string) {
    checkPathIds({ contactId });
    return getContact(ctx, contactId);
  }

  @Patch(':contactId')
  @RequireScope('contacts.write')
  update(@Ctx() ctx: OpContext, @Param('contactId') contactId: string, @Body() body: unknown) {
    checkPathIds({ contactId });
    return updateContact(ctx, contactId, body);
  }

  @Delete(':contactId')
  @RequireScope('contacts.write')
  remove(@Ctx() ctx: OpContext, @Param('contactId') contactId: string, @Body() body: unknown) {
    checkPathIds({ contactId });
    checkBody(body, {});
    return deleteContact(ctx, contactId);
  }

  @Post(':contactId/tags/:tagId')
  @HttpCode(200)
  @RequireScope('contacts.write')
  addTag(
    @Ctx() ctx: OpContext,
    @Param('contactId') contactId: string,
    @Param('tagId') tagId: string,
    @Body() body: unknown,
  ) {
    checkPathIds({ contactId, tagId });
    checkBody(body, {});
    return addTag(ctx, contactId, tagId);
  }

  @Delete(':contactId/tags/:tagId')
  @RequireScope('contacts.write')
  removeTag(
    @Ctx() ctx: OpContext,
    @Param('contactId') contactId: string,
    @Param('tagId') tagId: string,
    @Body() body: unknown,
  ) {
    checkPathIds({ contactId, tagId });
    checkBody(body, {});
    return removeTag(ctx, contactId, tagId);
  }

  @Post(':contactId/block')
  @HttpCode(200)
  @RequireScope('contacts.write')
  block(@Ctx() ctx: OpContext, @Param('contactId') contactId: string, @Body() body: unknown) {
    checkPathIds({ contactId });
    checkBody(body, {});
    return setBlocked(ctx, contactId, true);
  }

  @Post(':contactId/unblock')
  @HttpCode(200)
  @RequireScope('contacts.write')
  unblock(@Ctx() ctx: OpContext, @Param('contactId') contactId: string, @Body() body: unknown) {
    checkPathIds({ contactId });
    checkBody(body, {});
    return setBlocked(ctx, contactId, false);
  }

  @Put(':contactId/stage')
  @RequireScope('contacts.write')
  setStage(@Ctx() ctx: OpContext, @Param('contactId') contactId: string, @Body() body: unknown) {
    checkPathIds({ contactId });
    return setStage(ctx, contactId, body);
  }
}
