import { ActionResultEntity } from '../actions/action-result.entity';
import { EnrollmentEntity } from '../actions/enrollment.entity';
import { RunEntity } from '../actions/run.entity';
import { InboxEventEntity } from '../intake/inbox-event.entity';
import { WebhookSubscriptionEntity } from '../intake/webhook-subscription.entity';

/** Every entity of the engine; the one list the DataSource and TypeOrmModule share. */
export const ENTITIES = [InboxEventEntity, WebhookSubscriptionEntity, RunEntity, ActionResultEntity, EnrollmentEntity];
