import {
  CanActivate,
  ExecutionContext,
  Inject,
  Injectable,
  ServiceUnavailableException,
  UnauthorizedException,
} from '@nestjs/common';
import type { Request } from 'express';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { presentedToken, tokenMatches } from './admin-token';

@Injectable()
export class AdminTokenGuard implements CanActivate {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  canActivate(context: ExecutionContext): boolean {
    if (!this.config.adminToken)
      throw new ServiceUnavailableException('admin API disabled: set ADMIN_TOKEN to enable it');
    const req = context.switchToHttp().getRequest<Request>();
    if (!tokenMatches(this.config.adminToken, presentedToken(req.headers))) {
      throw new UnauthorizedException('admin token missing or wrong');
    }
    return true;
  }
}
