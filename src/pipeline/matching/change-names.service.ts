// The stage and member names of change operators (`changedTo: Qualified`) resolved to ids before
// an event is evaluated, the way actions resolve theirs (the directory's cache, refreshed on a
// miss): conditions compare ids and stay pure. Only events whose rules use such names pay a lookup.
import { Injectable } from '@nestjs/common';
import { CrmDirectory } from '../../outbound/crm-gateway/crm-directory.service';
import { UnknownNameError } from '../../language/crm-terms/directory-match';
import type { CompiledRuleSet } from '../../language/matching/compiled-rule-set';
import type { NameResolver } from '../../language/rules/format/rule-types';

@Injectable()
export class ChangeNamesService {
  constructor(private readonly directory: CrmDirectory) {}

  /** undefined when the kind's rules name no stage or member; an unknown name resolves to nothing (no match). */
  async resolverFor(ruleSet: CompiledRuleSet, type: string): Promise<NameResolver | undefined> {
    const names = ruleSet.changeNames(type);
    if (names.length === 0) return undefined;
    const ids = new Map<string, string>();
    await Promise.all(
      names.map(async ({ kind, name }) => {
        try {
          const found =
            kind === 'stage'
              ? await this.directory.resolveStage(name)
              : await this.directory.resolveMember(name);
          ids.set(key(kind, name), found.id);
        } catch (err) {
          if (!(err instanceof UnknownNameError)) throw err;
        }
      }),
    );
    return (kind, name) => ids.get(key(kind, name));
  }
}

const key = (kind: string, name: string) => `${kind}\u0000${name}`;
