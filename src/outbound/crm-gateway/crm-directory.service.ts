// Names to ids for rules (`add-tag: vip`, `move-stage: New lead`, `assign: ana@demo.test`),
// cached per process and refreshed on a miss; the round-robin rotation lives in Redis so
// every process shares it.
import { Inject, Injectable } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { APP_CONFIG, type AppConfig } from '../../runtime/config/app-config';
import { CachedList } from './cached-list';
import type { MessageTemplate, PageQuery } from './crm-client-types';
import { CrmReads, type CallOptions } from './crm-reads';
import { CRM_REDIS } from './crm-redis';
import type { Channel, ContactStage, CustomField, Member, Tag } from '@crm-rules/crm-contract';
import {
  assignableMembers,
  findByNameOrId,
  memberLabels,
  roundRobinPick,
  UnknownNameError,
  type DirectoryKind,
} from '../../language/crm-terms/directory-match';
import { crmScope } from './rate-budget';
import { snapshotOf, type CrmSnapshot } from '../../language/crm-terms/crm-snapshot';
import { chooseMember, poolMembers, type PoolChoice } from '../../language/assignment/choose-member';
import type { PoolSpec } from '../../language/assignment/pool-spec';
import { poolLabel, poolRotation } from '../../language/assignment/pool-spec';

const TTL_MS = 5 * 60_000;
/** Channel status feeds a guard: keep it fresher than names. */
const CHANNEL_TTL_MS = 60_000;
/** A name that is not in the CRM is not looked up again for this long. */
const MISS_TTL_MS = 60_000;
const PAGE = 100;
/** Directory reads block actions of event-triggered runs: they go first. */
const OPTS: CallOptions = { priority: 'interactive', correlationId: 'directory' };

@Injectable()
export class CrmDirectory {
  private readonly tags = new CachedList(
    () => this.allPages((q) => this.gateway.listTags(q, OPTS)),
    TTL_MS,
    MISS_TTL_MS,
  );
  private readonly stages = new CachedList(
    async () => (await this.gateway.listStages(OPTS)).data,
    TTL_MS,
    MISS_TTL_MS,
  );
  private readonly members = new CachedList(
    () => this.allPages((q) => this.gateway.listUsers(q, OPTS)),
    TTL_MS,
    MISS_TTL_MS,
  );
  private readonly channels = new CachedList(
    async () => (await this.gateway.listChannels(undefined, OPTS)).data,
    CHANNEL_TTL_MS,
    MISS_TTL_MS,
  );
  /** Only approved templates can be sent (the CRM answers 422 template_not_approved otherwise). */
  private readonly templates = new CachedList(
    () => this.allPages((q) => this.gateway.listMessageTemplates({ ...q, status: 'APPROVED' }, OPTS)),
    TTL_MS,
    MISS_TTL_MS,
  );
  private readonly customFields = new CachedList(
    async () => (await this.gateway.listCustomFields({ status: 'ACTIVE' }, OPTS)).data,
    TTL_MS,
    MISS_TTL_MS,
  );
  private readonly rotationKey: string;
  /** Open conversations per member id, with when they were counted (POOL_OPEN_COUNT_STALENESS_MS). */
  private readonly openCounts = new Map<string, { n: number; at: number }>();
  private readonly openCountStalenessMs: number;
  /** Set on the view `cachedOnly()` returns: answer from fresh cached lists, never call the CRM. */
  private onlyCached = false;

  constructor(
    private readonly gateway: CrmReads,
    @Inject(CRM_REDIS) private readonly redis: Redis,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.rotationKey = `${config.redis.prefix}:crm-directory:{${crmScope(config.crm)}}:round-robin`;
    this.openCountStalenessMs = config.crm.openCountStalenessMs;
  }

  /**
   * This directory answering only from lists already loaded and fresh: a name it would have to
   * load (stale or missing list, unknown name, round-robin draw) throws NotCachedError instead.
   * For a caller inside a transaction (a run settled at creation), which must not wait on the
   * CRM's budget while it holds locks; the runner's own resolution refreshes the cache.
   */
  cachedOnly(): CrmDirectory {
    // Same lists (the instance's fields, through the prototype), only the flag differs.
    const view = Object.create(this) as CrmDirectory;
    view.onlyCached = true;
    return view;
  }

  resolveTag(nameOrId: string): Promise<Tag> {
    return this.resolve('tag', this.tags, nameOrId, (t) => [t.name]);
  }

  resolveStage(nameOrId: string): Promise<ContactStage> {
    return this.resolve('stage', this.stages, nameOrId, (s) => [s.name]);
  }

  resolveMember(nameOrEmailOrId: string): Promise<Member> {
    return this.resolve('member', this.members, nameOrEmailOrId, memberLabels);
  }

  resolveChannel(nameOrId: string): Promise<Channel> {
    return this.resolve('channel', this.channels, nameOrId, (c) => [c.name]);
  }

  /** An approved template by name (or uuid), in `language` when names repeat per language. */
  resolveTemplate(nameOrId: string, language?: string): Promise<MessageTemplate> {
    const key = language ? `${nameOrId} (${language})` : nameOrId;
    return this.resolve('template', this.templates, key, (t) =>
      language ? [`${t.name} (${String(t.language)})`, `${t.id} (${String(t.language)})`] : [t.name],
    );
  }

  /** An active custom field by its fieldKey (or uuid). */
  resolveCustomField(fieldKeyOrId: string): Promise<CustomField> {
    return this.resolve('custom field', this.customFields, fieldKeyOrId, (f) => [f.fieldKey]);
  }

  /**
   * An operator retried an action that failed on a name (it may have been created in the CRM since):
   * the names that missed are looked up again, without waiting MISS_TTL_MS (docs/RULES.md).
   */
  forgetMisses(): void {
    for (const list of [
      this.tags,
      this.stages,
      this.members,
      this.channels,
      this.templates,
      this.customFields,
    ])
      list.forgetMisses();
  }

  /**
   * The live directory in the snapshot's shape, for checking the names of a fetched rule set the
   * way `crm-rules validate` checks them against a snapshot file (src/runtime/rule-set/deploy).
   */
  async snapshot(source: string): Promise<CrmSnapshot> {
    const [tags, stages, members, channels, templates, fields] = await Promise.all([
      this.tags.get(),
      this.stages.get(),
      this.members.get(),
      this.channels.get(),
      this.templates.get(),
      this.customFields.get(),
    ]);
    return snapshotOf(
      { tags, stages, members, channels, templates, customFields: fields },
      source,
      new Date(),
    );
  }

  /** The next active member in a rotation shared by every process (GET /v1/users, Redis INCR). */
  async nextRoundRobinMember(): Promise<Member> {
    if (this.onlyCached) throw new NotCachedError('member', 'round-robin');
    const rotation = assignableMembers(await this.members.get());
    const n = await this.redis.incr(this.rotationKey);
    const member = roundRobinPick(rotation, n);
    if (!member) throw new UnknownNameError('member', 'round-robin');
    return member;
  }

  /**
   * The member an assignment pool gives a contact (src/language/assignment/choose-member.ts): the
   * pool's own rotation is shared by every process (one counter per `rotation`: the rule's action);
   * least-open and max-open
   * count each pool member's open conversations as the active contacts assigned to them (GET
   * /v1/contacts?assigneeIds=<id>&status=active&limit=1, its `total`: the conversations list has
   * no assignee filter), at most one count per member per POOL_OPEN_COUNT_STALENESS_MS.
   */
  async choosePoolMember(
    spec: PoolSpec,
    rotation: string = poolRotation(spec),
    /** peek: a preview's choice, the next turn read and not taken, so previews never move the rotation. */
    options: { peek?: boolean } = {},
  ): Promise<PoolChoice> {
    if (this.onlyCached) throw new NotCachedError('member', poolLabel(spec));
    const members = await this.members.get();
    const counted = spec.strategy === 'least-open' || spec.maxOpen !== undefined;
    const openCounts = counted
      ? await this.countOpen(poolMembers(members, spec).map((m) => m.id))
      : undefined;
    // One counter per pool action (rotation: poolRotationOf), not per label: two rules writing the
    // same pool would otherwise share turns, each seeing every other member.
    const key = `${this.rotationKey}:pool:${rotation}`;
    const turn = options.peek ? Number((await this.redis.get(key)) ?? 0) + 1 : await this.redis.incr(key);
    return chooseMember(spec, { members, openCounts, turn });
  }

  private async countOpen(ids: string[]): Promise<Record<string, number>> {
    const out: Record<string, number> = {};
    for (const id of ids) {
      const cached = this.openCounts.get(id);
      if (cached && Date.now() - cached.at < this.openCountStalenessMs) {
        out[id] = cached.n;
        continue;
      }
      const page = await this.gateway.listContacts(
        { assigneeIds: [id], status: 'active', page: 1, limit: 1 },
        OPTS,
      );
      this.openCounts.set(id, { n: page.total, at: Date.now() });
      out[id] = page.total;
    }
    return out;
  }

  private async resolve<T extends { id: string }>(
    kind: DirectoryKind,
    list: CachedList<T>,
    wanted: string,
    labels: (item: T) => (string | null | undefined)[],
  ): Promise<T> {
    if (this.onlyCached) {
      const cached = list.peek();
      const hit = cached && findByNameOrId(cached, wanted, labels);
      if (!hit) throw new NotCachedError(kind, wanted);
      return hit;
    }
    const found = findByNameOrId(await list.get(), wanted, labels);
    if (found) return found;
    const fresh = await list.refreshOnMiss(wanted);
    const again = fresh && findByNameOrId(fresh, wanted, labels);
    if (again) return again;
    const known = (fresh ?? (await list.get())).map((item) => String(labels(item)[0] ?? item.id));
    throw new UnknownNameError(kind, wanted, known);
  }

  private async allPages<T>(
    fetch: (q: PageQuery) => Promise<{ data: T[]; hasNext?: boolean }>,
  ): Promise<T[]> {
    const items: T[] = [];
    for (let page = 1; ; page++) {
      const res = await fetch({ page, limit: PAGE });
      items.push(...res.data);
      if (!res.hasNext || res.data.length === 0) return items;
    }
  }
}

/** A name `cachedOnly()` cannot answer without calling the CRM. */
export class NotCachedError extends Error {
  override readonly name = 'NotCachedError';
  constructor(kind: DirectoryKind, wanted: string) {
    super(`${kind} "${wanted}" is not in the fresh cache`);
  }
}
