import { SCOPES } from "../../lib/api-keys";
import { ACTION_DEFINITIONS } from "../helpers/action-definitions";

/**
 * Every endpoint of the partner API declares the scope a key needs (or "any", said out loud): a
 * new endpoint without one fails here instead of being open to every key.
 */
const partnerActions = [...ACTION_DEFINITIONS].filter(([, action]) => action.api === "partner");

test("the partner API has at least the seven SPEC operations", () => {
  expect(partnerActions.length).toBeGreaterThanOrEqual(7);
});

test.each(partnerActions.map(([name, action]) => [name, action.scope]))("%s declares a scope", (_name, scope) => {
  expect([...SCOPES, "any"]).toContain(scope);
});

test("only the health ping is open to every key; writes need parcels:write; money is read with wallet:read; COD with parcels:read", () => {
  const byScope = (scope: string) =>
    partnerActions
      .filter(([, a]) => a.scope === scope)
      .map(([name]) => name)
      .sort();
  expect(byScope("any")).toEqual(["auth.health"]);
  expect(byScope("parcels:write")).toEqual([
    "auth.setOwnPickupAddress",
    "logistics.cancelPickup",
    "logistics.completeSandboxPickup",
    "logistics.createManifest",
    "logistics.createPickup",
    "logistics.receiveReturn",
    "parcels.cancel",
    "parcels.cancelReturn",
    "parcels.create",
    "parcels.createBatch",
    "parcels.extendPickup",
    "parcels.openClaim",
    "parcels.openReturn",
    "parcels.putRecipientSettings",
    "parcels.putReturnSettings",
    "parcels.redirect",
    "parcels.sandboxDropOff",
    "parcels.triggerSandboxEvent"
  ]);
  expect(byScope("parcels:read")).toEqual([
    "auth.getOwnPickupAddress",
    "labels.createDocument",
    "labels.printerFont",
    "logistics.getManifest",
    "logistics.getPickup",
    "logistics.listManifests",
    "logistics.listPickups",
    "parcels.codSummary",
    "parcels.events",
    "parcels.get",
    "parcels.getByTracking",
    "parcels.getClaim",
    "parcels.getRecipientSettings",
    "parcels.getRemittance",
    "parcels.getReturn",
    "parcels.getReturnSettings",
    "parcels.list",
    "parcels.listClaims",
    "parcels.listRemittances",
    "parcels.listReturns",
    "parcels.quote",
    "parcels.searchRelayPoints",
    "webhooks.getEvent",
    "webhooks.listEvents"
  ]);
  expect(byScope("wallet:read")).toEqual(["wallet.mine", "wallet.myEntries"]);
});

test("the public API carries no scope and no key: nothing in it is per merchant", () => {
  const publicActions = [...ACTION_DEFINITIONS].filter(([, action]) => action.api === "public");
  expect(publicActions.map(([name]) => name).sort()).toEqual([
    "parcels.publicRelayPoints",
    "parcels.publicTracking",
    "parcels.recipientRedirect",
    "parcels.requestRedirectCode"
  ]);
  for (const [, action] of publicActions) expect(action.scope).toBeUndefined();
});
