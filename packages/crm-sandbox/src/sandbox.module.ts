// The sandbox's own Nest module: never imported by the engine's AppModule. startSandbox
// builds it around a SandboxRuntime it owns.
import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR } from '@nestjs/core';
import { LostAnswerInterceptor } from './http/lost-answer.interceptor';
import { CustomFieldsController } from './http/custom-fields.controller';
import { SegmentsController, StagesController, TagsController } from './http/catalogue.controller';
import { ContactsController } from './http/contacts.controller';
import { ConversationsController } from './http/conversations.controller';
import { DirectoryController } from './http/directory.controller';
import { MessagesController, MessageTemplatesController } from './http/messages.controller';
import { SandboxControlController } from './http/sandbox-control.controller';
import { SandboxExceptionFilter } from './http/sandbox-exception.filter';
import { SandboxGateGuard } from './http/sandbox-gate.guard';
import { WebhooksController } from './http/webhooks.controller';
import { SANDBOX_RUNTIME, SandboxRuntime } from './sandbox-runtime';

@Module({})
export class SandboxModule {
  static forRuntime(runtime: SandboxRuntime): DynamicModule {
    return {
      module: SandboxModule,
      controllers: [
        ContactsController,
        ConversationsController,
        MessagesController,
        MessageTemplatesController,
        TagsController,
        StagesController,
        SegmentsController,
        CustomFieldsController,
        DirectoryController,
        WebhooksController,
        SandboxControlController,
      ],
      providers: [
        { provide: SANDBOX_RUNTIME, useValue: runtime },
        { provide: APP_GUARD, useClass: SandboxGateGuard },
        { provide: APP_INTERCEPTOR, useClass: LostAnswerInterceptor },
        { provide: APP_FILTER, useValue: new SandboxExceptionFilter(runtime.options.log) },
      ],
    };
  }
}
