// The fields our actions add to Moleculer's ActionSchema (declaration merging, as the Moleculer
// TypeScript template does). They travel in the registry with the rest of the definition, which is
// how a gateway in another process learns routes, scopes and documentation.
import "moleculer";
import type { ObjectSchema } from "joi";
import type { ScopeRequirement } from "../lib/api-keys";
import type { ApiKind, CompiledEndpoint } from "../lib/endpoint";

declare module "moleculer" {
  interface ActionSchema {
    /** Joi schema of `ctx.params`, checked by the validation middleware (serialised as "joi"). */
    schema?: ObjectSchema<unknown>;
    /** The scope a partner key needs; "any" when every valid key may call it. */
    scope?: ScopeRequirement;
    /** Which API of the gateway routes `rest` (its base path, credential and limit). */
    api?: ApiKind;
    /** The endpoint's contract: status, Location, response, errors, documentation. */
    endpoint?: CompiledEndpoint;
    /** This action's own call time-out in ms (Moleculer's timeout middleware reads it; its typings leave it out). */
    timeout?: number;
  }
}
