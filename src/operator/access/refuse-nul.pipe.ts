// Every route's parameters, query and body, before any other pipe: a value holding U+0000 is bad
// input (400), not a statement that fails in Postgres (500). Registered once, in engine.ts.
import { BadRequestException, type ArgumentMetadata, type PipeTransform } from '@nestjs/common';
import { holdsNul } from '../../language/net/nul-character';

export class RefuseNulPipe implements PipeTransform {
  transform(value: unknown, meta: ArgumentMetadata): unknown {
    if (meta.type !== 'custom' && holdsNul(value))
      throw new BadRequestException(
        `the request's ${meta.type}${meta.data ? ` "${meta.data}"` : ''} holds U+0000, which no field accepts`,
      );
    return value;
  }
}
