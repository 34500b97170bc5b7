// Fixture: a Nest service the catalogue names by type only.
import { Injectable } from '@nestjs/common';

@Injectable()
export class Gateway {
  send = (text: string) => text;
}
