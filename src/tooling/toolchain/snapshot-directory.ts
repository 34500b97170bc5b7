// The engine's name directory, answered from a CRM snapshot instead of the CRM: offline
// forecasts and replays resolve names exactly as the engine would (directory-match.ts).
import { chooseMember, type PoolChoice, type PoolMember } from '../../language/assignment/choose-member';
import type { PoolSpec } from '../../language/assignment/pool-spec';
import type { CrmDirectory } from '../../outbound/crm-gateway/crm-directory.service';
import type { Channel, ContactStage, Member, Tag } from '@crm-rules/crm-contract';
import {
  assignableMembers,
  findByNameOrId,
  memberLabels,
  UnknownNameError,
} from '../../language/crm-terms/directory-match';
import type { CrmSnapshot } from '../../language/crm-terms/crm-snapshot';

export class SnapshotDirectory {
  private rotation = 0;

  constructor(private readonly snapshot: CrmSnapshot) {}

  async resolveTag(nameOrId: string): Promise<Tag> {
    const t = findByNameOrId(this.snapshot.tags, nameOrId, (x) => [x.name]);
    if (!t)
      throw new UnknownNameError(
        'tag',
        nameOrId,
        this.snapshot.tags.map((x) => x.name),
      );
    return { ...t, color: '' };
  }

  async resolveStage(nameOrId: string): Promise<ContactStage> {
    const s = findByNameOrId(this.snapshot.stages, nameOrId, (x) => [x.name]);
    if (!s)
      throw new UnknownNameError(
        'stage',
        nameOrId,
        this.snapshot.stages.map((x) => x.name),
      );
    return s as unknown as ContactStage;
  }

  async resolveMember(nameOrId: string): Promise<Member> {
    const members = this.snapshot.members as unknown as Member[];
    const m = findByNameOrId(members, nameOrId, memberLabels);
    if (!m) throw new UnknownNameError('member', nameOrId, members.flatMap(memberLabels));
    return m;
  }

  async resolveChannel(nameOrId: string): Promise<Channel> {
    const c = findByNameOrId(this.snapshot.channels, nameOrId, (x) => [x.name]);
    if (!c)
      throw new UnknownNameError(
        'channel',
        nameOrId,
        this.snapshot.channels.map((x) => x.name),
      );
    return c as unknown as Channel;
  }

  private poolTurn = 0;

  async nextRoundRobinMember(): Promise<Member> {
    const active = assignableMembers(this.snapshot.members as unknown as Member[]);
    if (active.length === 0) throw new UnknownNameError('member', 'round-robin');
    return active[this.rotation++ % active.length];
  }

  /**
   * A pool's choice as the engine makes it (the same chooseMember), from the snapshot's members
   * and this dry run's own rotation. A snapshot holds no open counts: every member counts 0 open,
   * so least-open goes by the rotation and max-open never fills (docs/RULES.md, Assignment pools).
   */
  async choosePoolMember(spec: PoolSpec): Promise<PoolChoice> {
    const members = this.snapshot.members as unknown as PoolMember[];
    const openCounts = Object.fromEntries(members.map((m) => [m.id, 0]));
    return chooseMember(spec, { members, openCounts, turn: ++this.poolTurn });
  }

  /** resolveAction and resolveMemberId take the engine's directory; this answers the same calls. */
  asDirectory(): CrmDirectory {
    return this as unknown as CrmDirectory;
  }
}
