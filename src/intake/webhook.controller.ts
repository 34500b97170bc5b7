import { Controller, Headers, HttpCode, Inject, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { IntakeService } from './intake.service';

@ApiExcludeController()
@Controller('webhooks')
export class WebhookController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly intake: IntakeService,
  ) {}

  @Post('crm')
  @HttpCode(200)
  async receive(@Req() req: Request & { rawBody?: Buffer }, @Res() res: Response, @Headers() headers: Record<string, string>) {
    const outcome = await this.intake.accept(req.rawBody ?? Buffer.alloc(0), headers[this.config.crm.signatureHeader]);
    res.status(outcome.status).json(outcome.body);
  }
}
