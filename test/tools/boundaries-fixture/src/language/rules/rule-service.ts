// Fixture: breaks core-imports-no-framework (Nest in the rule language).
import { Injectable } from '@nestjs/common';

@Injectable()
export class RuleService {}
