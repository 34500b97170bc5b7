import { ConsoleSessionEntity } from '../sessions/console-session.entity';
import { UserEntity } from '../users/user.entity';
import { ContactJournalEntity } from '../journal/contact-journal.entity';
import { RuleControlAuditEntity } from '../rule-controls/rule-control-audit.entity';
import { RuleControlEntity } from '../rule-controls/rule-control.entity';
import { RuleSetDeployAuditEntity } from '../rule-set/deploy/rule-set-deploy-audit.entity';
import { RuleSetVersionEntity } from '../rule-set/deploy/rule-set-version.entity';
import { ActionResultEntity } from '../persistence/ledger/action-result.entity';
import { EnrollmentEntity } from '../persistence/ledger/enrollment.entity';
import { RunEntity } from '../persistence/ledger/run.entity';
import { InboxEventEntity } from '../persistence/ledger/inbox-event.entity';
import { WebhookSubscriptionEntity } from './webhook-subscription.entity';
import { ContactMirrorStateEntity } from '../contacts/contact-mirror-state.entity';
import { ContactMirrorTombstoneEntity } from '../contacts/contact-mirror-tombstone.entity';
import { ContactMirrorEntity } from '../contacts/contact-mirror.entity';
import { SegmentMembershipEntity } from '../segments/segment-membership.entity';
import { SegmentRuleStateEntity } from '../segments/segment-rule-state.entity';
import { SegmentSweepEntity } from '../segments/segment-sweep.entity';
import { DemoMarkerEntity } from '../demo/demo-marker.entity';

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
  // console
  RuleControlEntity,
  RuleControlAuditEntity,
  ContactJournalEntity,
  ConsoleSessionEntity,
  // the embedded demo
  DemoMarkerEntity,
  // deployed rule sets
  RuleSetVersionEntity,
  RuleSetDeployAuditEntity,
  UserEntity,
];
