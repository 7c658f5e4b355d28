import type { MergeRules, OrganizationItem } from '../../db/entities/organization.ts';
import type { SpaceItem } from '../../db/entities/space.ts';
import type { ChangeRequestItem } from '../../db/entities/change-request.ts';
import { Rejection } from '../retry.ts';
import { currentReviews } from '../change-request-reviews/state.ts';

type Rule = Extract<MergeRules, { type: 'rules' }>['rules'][number];

export interface MergeRuleFailure {
  rule: string;
  message: string;
}

/** The rules that apply to a space: its own, or (`inherit`) its organization's; an organization's `inherit` means none. */
export function effectiveMergeRules(space: Pick<SpaceItem, 'mergeRules'>, org: Pick<OrganizationItem, 'mergeRules'>): MergeRules {
  const rules = space.mergeRules?.type === 'inherit' || !space.mergeRules ? org.mergeRules : space.mergeRules;
  return rules?.type === 'rules' ? rules : { type: 'none' };
}

interface Evaluation {
  cr: ChangeRequestItem;
  /** The space's primary revision now. */
  spaceRevision: string | undefined;
  /** Who is merging. */
  actor: string;
}

/** Whether a rich document holds any non-blank text (a `text` string at any depth). */
function hasText(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const current = stack.pop();
    if (Array.isArray(current)) stack.push(...current);
    else if (current && typeof current === 'object') {
      for (const [key, inner] of Object.entries(current)) {
        if (key === 'text' && typeof inner === 'string' && inner.trim() !== '') return true;
        if (typeof inner === 'object') stack.push(inner);
      }
    }
  }
  return false;
}

/**
 * Why one rule does not allow the merge, or undefined when it does. Reviews count only while
 * current (the reviewer's latest, on the change request's current revision). The author never
 * reviews their own change request, so a reviewer rule never waits for them.
 */
function failure(rule: Rule, { cr, spaceRevision, actor }: Evaluation): string | undefined {
  const current = currentReviews(cr);
  const approved = (userId: string) => current.get(userId)?.status === 'approved';
  const others = (users: string[] = []) => [...new Set(users)].filter((u) => u !== cr.createdBy);
  const statuses = [...current.values()].map((r) => r.status);
  switch (rule.rule) {
    case 'require_specific_reviewers': {
      const missing = others(rule.users).filter((u) => !approved(u));
      return missing.length ? `This change request needs an approving review of its current revision from each of ${missing.join(', ')}` : undefined;
    }
    case 'require_one_of_specific_reviewers': {
      const users = others(rule.users);
      return users.length && !users.some(approved) ? `This change request needs an approving review of its current revision from one of ${users.join(', ')}` : undefined;
    }
    case 'require_at_least_one_review':
      return statuses.length === 0 ? 'This change request needs at least one review of its current revision' : undefined;
    case 'require_at_least_one_approved_review':
      return statuses.includes('approved') ? undefined : 'This change request needs at least one approving review of its current revision';
    case 'require_all_reviews_approved': {
      const pending = others(cr.requestedReviewers).filter((u) => !approved(u));
      const against = [...current].filter(([, r]) => r.status !== 'approved').map(([u]) => u);
      const blocking = [...new Set([...against, ...pending])];
      return blocking.length ? `This change request needs every review of its current revision approved, and every requested reviewer's approval (missing: ${blocking.join(', ')})` : undefined;
    }
    case 'require_up_to_date_change_request':
      return spaceRevision !== undefined && (cr.revisionMergedAncestor ?? cr.revisionInitial) !== spaceRevision
        ? 'This change request is not up to date with the space\'s content: update it first (POST .../update)' : undefined;
    case 'require_change_request_subject':
      return cr.subject?.trim() ? undefined : 'This change request needs a subject';
    case 'require_change_request_description':
      return hasText(cr.description) ? undefined : 'This change request needs a description';
    case 'require_author_to_merge':
      return actor === cr.createdBy ? undefined : `This change request can only be merged by its author (${cr.createdBy})`;
    case 'require_agent_review':
      return 'This change request needs an agent review, which this service does not perform';
    case 'custom':
      return rule.message?.trim() || 'This change request needs its custom merge rule expression to pass, which this service does not evaluate';
    default:
      return undefined;
  }
}

/** Every rule the merge fails; none when a rule `allow_bypass` names the actor. */
export function mergeRuleFailures(rules: MergeRules, evaluation: Evaluation): MergeRuleFailure[] {
  if (rules.type !== 'rules') return [];
  if (rules.rules.some((r) => r.rule === 'allow_bypass' && r.users?.includes(evaluation.actor))) return [];
  return rules.rules.flatMap((rule) => {
    const reason = failure(rule, evaluation);
    return reason === undefined ? [] : [{ rule: rule.rule, message: `${reason} (merge rule: ${rule.rule})` }];
  });
}

/** 403 naming the first failing rule (all of them under `mergeRules`), before anything is written. */
export function enforceMergeRules(rules: MergeRules, evaluation: Evaluation): void {
  const failures = mergeRuleFailures(rules, evaluation);
  if (failures.length > 0) throw new Rejection(403, failures[0]!.message, { mergeRules: failures });
}
