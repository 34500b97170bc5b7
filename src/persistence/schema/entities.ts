import { ConsoleSessionEntity } from '../../operator/access/console-session.entity';
import { UserEntity } from '../../operator/access/user.entity';
import { ContactJournalEntity } from '../journal/contact-journal.entity';
import { RuleControlAuditEntity } from '../../runtime/rule-controls/rule-control-audit.entity';
import { RuleControlEntity } from '../../runtime/rule-controls/rule-control.entity';
import { RuleSetDeployAuditEntity } from '../../runtime/rule-set/deploy/rule-set-deploy-audit.entity';
import { RuleSetVersionEntity } from '../../runtime/rule-set/deploy/rule-set-version.entity';
import { ActionResultEntity } from '../ledger/action-result.entity';
import { EnrollmentEntity } from '../ledger/enrollment.entity';
import { RunEntity } from '../ledger/run.entity';
import { BulkRunEntity } from '../ledger/bulk-run.entity';
import { InboxEventEntity } from '../ledger/inbox-event.entity';
import { RuleSetRefEntity } from '../ledger/rule-set-ref.entity';
import { WebhookSubscriptionEntity } from './webhook-subscription.entity';
import { ContactMirrorStateEntity } from '../../pipeline/contact-mirror/contact-mirror-state.entity';
import { ContactMirrorTombstoneEntity } from '../../pipeline/contact-mirror/contact-mirror-tombstone.entity';
import { ContactMirrorEntity } from '../../pipeline/contact-mirror/contact-mirror.entity';
import { SegmentMembershipEntity } from '../../pipeline/segments/segment-membership.entity';
import { SegmentRuleStateEntity } from '../../pipeline/segments/segment-rule-state.entity';
import { SegmentSweepEntity } from '../../pipeline/segments/segment-sweep.entity';
import { DemoMarkerEntity } from '../../tooling/demo/demo-marker.entity';

/** Every entity of the engine; the one list the DataSource and TypeOrmModule share. */
export const ENTITIES = [
  InboxEventEntity,
  WebhookSubscriptionEntity,
  RunEntity,
  ActionResultEntity,
  EnrollmentEntity,
  BulkRunEntity,
  RuleSetRefEntity,
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
