import { Injectable } from '@nestjs/common';
import { Logger as PinoLogger } from 'nestjs-pino';

/** Nest's start-up chatter (one line per module and route) goes to debug; the rest is unchanged. */
const CHATTY_CONTEXTS = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestFactory']);

@Injectable()
export class EngineLogger extends PinoLogger {
  override log(message: unknown, ...optionalParams: unknown[]): void {
    const context = optionalParams[optionalParams.length - 1];
    if (typeof context === 'string' && CHATTY_CONTEXTS.has(context))
      return super.debug(message, ...optionalParams);
    return super.log(message, ...optionalParams);
  }
}
