import { forbidden } from '../http/errors.ts';
import type { Role } from '../http/schemas.ts';
import { atLeast } from './roles.ts';

/**
 * Declared policies, in the manner of outline's server/policies: each resource declares
 * once which requirements every action has (shared/policies/<resource>.ts), and both the
 * route checks (`policy.authorize`) and the presented `permissions` objects
 * (`policy.permissions`) read that declaration, so the two cannot disagree.
 */

/**
 * Who acts: their role where the resource lives (the effective role on a space or
 * collection, the org role elsewhere; null for a guest, undefined for a non-member) and,
 * where authorship counts, their user id.
 */
export interface Actor {
  role: Role | null | undefined;
  userId?: string;
}

/** One requirement of an action: a check and the 403 message when it fails. */
export interface Requirement<R> {
  check: (actor: Actor, resource: R) => boolean;
  reason: string;
}

export function requirement<R>(check: (actor: Actor, resource: R) => boolean, reason: string): Requirement<R> {
  return { check, reason };
}

/** The actor's role is `minimum` or higher. */
export function role(minimum: Role, reason: string): Requirement<unknown> {
  return requirement((actor) => atLeast(actor.role, minimum), reason);
}

/** The resource argument: optional for policies whose rules never look at it (org-role only). */
type ResourceArg<R> = unknown extends R ? [resource?: R] : [resource: R];

export interface Policy<R, A extends string, P extends string> {
  /** Whether every requirement of `action` holds. */
  can(actor: Actor, action: A, ...resource: ResourceArg<R>): boolean;
  /** Throws 403 with the first requirement of `action` that fails. */
  authorize(actor: Actor, action: A, ...resource: ResourceArg<R>): void;
  /** The resource's presented `permissions`: each name answers whether its action is allowed. */
  permissions(actor: Actor, ...resource: ResourceArg<R>): Record<P, boolean>;
}

/**
 * A resource's policy: `rules` lists each action's requirements (all must hold, checked in
 * order); `presented` names the action behind each field of the resource's `permissions`.
 */
export function definePolicy<R, const A extends string, const P extends string>(declaration: {
  rules: Record<A, readonly Requirement<R>[]>;
  presented: Record<P, NoInfer<A>>;
}): Policy<R, A, P> {
  const failing = (actor: Actor, action: A, resource: R) =>
    declaration.rules[action].find((r) => !r.check(actor, resource));
  const can = (actor: Actor, action: A, resource: R) => failing(actor, action, resource) === undefined;
  return {
    can: (actor, action, ...[resource]) => can(actor, action, resource as R),
    authorize(actor, action, ...[resource]) {
      const failed = failing(actor, action, resource as R);
      if (failed) throw forbidden(failed.reason);
    },
    permissions(actor, ...[resource]) {
      const out = {} as Record<P, boolean>;
      for (const [name, action] of Object.entries(declaration.presented) as [P, A][]) out[name] = can(actor, action, resource as R);
      return out;
    },
  };
}
