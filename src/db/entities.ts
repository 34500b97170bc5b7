import { ActionResultEntity } from '../actions/action-result.entity';
import { EnrollmentEntity } from '../actions/enrollment.entity';
import { RunEntity } from '../actions/run.entity';
import { InboxEventEntity } from '../intake/inbox-event.entity';
import { WebhookSubscriptionEntity } from '../intake/webhook-subscription.entity';
import { ContactMirrorStateEntity } from '../segments/contact-mirror-state.entity';
import { ContactMirrorTombstoneEntity } from '../segments/contact-mirror-tombstone.entity';
import { ContactMirrorEntity } from '../segments/contact-mirror.entity';
import { SegmentMembershipEntity } from '../segments/segment-membership.entity';
import { SegmentRuleStateEntity } from '../segments/segment-rule-state.entity';
import { SegmentSweepEntity } from '../segments/segment-sweep.entity';

/** Every entity of the engine; the one list the DataSource and TypeOrmModule share. */
export const ENTITIES = [
  InboxEventEntity,
  WebhookSubscriptionEntity,
  RunEntity,
  ActionResultEntity,
  EnrollmentEntity,
  // segments
  ContactMirrorEntity,
  ContactMirrorTombstoneEntity,
  ContactMirrorStateEntity,
  SegmentRuleStateEntity,
  SegmentMembershipEntity,
  SegmentSweepEntity,
];
