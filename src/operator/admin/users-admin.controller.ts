// People, for admins: create a local account (the first one with ADMIN_TOKEN, the bootstrap
// credential), list, change a role, issue an API token (shown once, kept as a digest), disable.
// OIDC users appear on their first sign-in; their role follows the provider's claims.
import {
  BadRequestException,
  Body,
  ConflictException,
  Controller,
  Get,
  HttpCode,
  NotFoundException,
  Param,
  ParseUUIDPipe,
  Post,
} from '@nestjs/common';
import { ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { apiTokenHash, newApiToken } from '../access/api-token';
import { MinRole } from '../roles/min-role.decorator';
import { hashPassword, passwordWeakness } from '../access/password';
import { isRole } from '../roles/roles';
import { ConsoleSessionsRepository } from '../access/console-sessions.repository';
import { UsersRepository } from '../access/users.repository';

const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,253}$/;

@ApiTags('admin')
@ApiSecurity('admin')
@MinRole('admin')
@Controller('admin/users')
export class UsersAdminController {
  constructor(
    private readonly users: UsersRepository,
    private readonly sessions: ConsoleSessionsRepository,
  ) {}

  @Get()
  @ApiOperation({
    summary: 'Every user: email, name, role, local or oidc, whether they hold an API token, disabled',
  })
  list() {
    return this.users.list();
  }

  @Post()
  @ApiOperation({
    summary: 'A local account: { email, displayName, role: viewer|operator|admin, password (12+) }',
  })
  async create(@Body() body: { email?: unknown; displayName?: unknown; role?: unknown; password?: unknown }) {
    const { email, displayName, role, password } = body ?? {};
    if (typeof email !== 'string' || !EMAIL.test(email))
      throw new BadRequestException('email must be an email address');
    if (typeof displayName !== 'string' || !displayName.trim() || displayName.length > 200)
      throw new BadRequestException('displayName must be 1-200 characters');
    if (!isRole(role)) throw new BadRequestException('role must be viewer, operator or admin');
    if (typeof password !== 'string') throw new BadRequestException('password is required');
    const weakness = passwordWeakness(password);
    if (weakness) throw new BadRequestException(weakness);
    const user = await this.users.createLocal(email, displayName.trim(), role, await hashPassword(password));
    if (!user) throw new ConflictException(`a user with email ${email.toLowerCase()} exists`);
    return user;
  }

  @Post(':id/role')
  @HttpCode(200)
  @ApiOperation({ summary: "{ role }: the user's role; their open console sessions end" })
  async setRole(@Param('id', ParseUUIDPipe) id: string, @Body() body: { role?: unknown }) {
    if (!isRole(body?.role)) throw new BadRequestException('role must be viewer, operator or admin');
    if (!(await this.users.setRole(id, body.role))) throw new NotFoundException(`user ${id} not found`);
    const ended = await this.sessions.closeForUser(id);
    return { id, role: body.role, sessionsEnded: ended };
  }

  @Post(':id/api-token')
  @HttpCode(200)
  @ApiOperation({
    summary: 'A new API token for the user, replacing any earlier one: shown this once, kept as a digest',
  })
  async issueToken(@Param('id', ParseUUIDPipe) id: string) {
    const token = newApiToken();
    if (!(await this.users.setApiTokenHash(id, apiTokenHash(token))))
      throw new NotFoundException(`user ${id} not found or disabled`);
    return { id, token };
  }

  @Post(':id/disable')
  @HttpCode(200)
  @ApiOperation({ summary: 'Disable the user: their API token is dropped and their console sessions end' })
  async disable(@Param('id', ParseUUIDPipe) id: string) {
    if (!(await this.users.disable(id)))
      throw new NotFoundException(`user ${id} not found or already disabled`);
    return { id, disabled: true, sessionsEnded: await this.sessions.closeForUser(id) };
  }
}
