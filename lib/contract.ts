import type { CallingOptions } from "moleculer";

/**
 * What each action is called with and answers, declared by the service that answers it (its
 * `x/x.contract.ts` adds its actions to this interface by declaration merging). Callers then call
 * by name and get both types from the answering service, instead of each writing its own guess:
 *
 *   const principal = await call(ctx, "auth.resolveKey", { keyHash });   // Principal | null
 *
 * Contract files hold types only, so importing them loads no other service's code.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface ActionContracts {}

export type ActionName = keyof ActionContracts & string;
type Params<A extends ActionName> = ActionContracts[A] extends { params: infer P } ? P : never;
type Answer<A extends ActionName> = ActionContracts[A] extends { answer: infer R } ? R : never;

/** A Context or a ServiceBroker: both call actions. */
export interface Caller {
  call<TResult, TParams>(actionName: string, params?: TParams, opts?: CallingOptions): Promise<TResult>;
}

export function call<A extends ActionName>(caller: Caller, action: A, params: Params<A>, opts?: CallingOptions): Promise<Answer<A>> {
  return caller.call<Answer<A>, Params<A>>(action, params, opts);
}
