import type { ActionSchema, ServiceSchema } from "moleculer";
import { SCOPES } from "../../lib/api-keys";
import { SERVICE_SCHEMAS } from "../../services";
import GatewayService from "../../services/gateway.service";

/**
 * Every action the partner API routes to declares the scope a key needs (or "any", said out
 * loud): a new endpoint without one fails here instead of being open to every key.
 */
const routes = (GatewayService.settings as { routes: Array<{ name: string; aliases: Record<string, string> }> }).routes;
const partnerActions = Object.values(routes.find(r => r.name === "partner")!.aliases);

function definition(actionName: string): ActionSchema {
  const [service, action] = actionName.split(".");
  const schema = SERVICE_SCHEMAS[service as keyof typeof SERVICE_SCHEMAS] as ServiceSchema;
  return schema.actions![action] as ActionSchema;
}

test("the partner API routes to at least the seven SPEC operations", () => {
  expect(partnerActions.length).toBeGreaterThanOrEqual(7);
});

test.each(partnerActions)("%s declares a scope", actionName => {
  const scope = (definition(actionName) as { scope?: string }).scope;
  expect([...SCOPES, "any"]).toContain(scope);
});

test("only the health ping is open to every key; writes need parcels:write", () => {
  const byScope = (scope: string) => partnerActions.filter(a => (definition(a) as { scope?: string }).scope === scope).sort();
  expect(byScope("any")).toEqual(["auth.health"]);
  expect(byScope("parcels:write")).toEqual(["parcels.cancel", "parcels.create", "parcels.triggerSandboxEvent"]);
});
