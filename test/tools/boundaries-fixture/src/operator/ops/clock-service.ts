// Fixture: a Nest service outside the core.
import { Injectable } from '@nestjs/common';

@Injectable()
export class ClockService {
  now = () => new Date();
}
