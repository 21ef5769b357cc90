import { HEALTH_ACTION, healthOf } from "../../lib/health";
import type { Principal } from "../../lib/principal";

const principal: Principal = {
  keyId: "00000000-0000-4000-8000-00000000000a",
  keyPrefix: "rp_live_AbCd",
  organizationId: "00000000-0000-4000-8000-000000000001",
  organizationName: "Boutique Amel",
  mode: "live",
  scopes: ["parcels:read"],
  rateLimitPerMinute: null
};

/** SPEC §2.5: what GET /health says, whether the gateway's edge or auth.health answers it. */
describe("the health answer", () => {
  test("the key's organisation and prefix and the server clock, nothing else of the principal", () => {
    expect(healthOf(principal, new Date("2026-11-26T05:00:00.000Z"))).toEqual({
      status: "ok",
      organizationId: principal.organizationId,
      organizationName: "Boutique Amel",
      keyPrefix: "rp_live_AbCd",
      serverTime: "2026-11-26T05:00:00.000Z"
    });
  });

  test("the edge answers the action the endpoint is declared on", async () => {
    const { default: AuthService } = await import("../../services/auth.service");
    const actions = AuthService.actions as Record<string, { rest?: string }>;
    expect(`auth.${Object.keys(actions).find(name => actions[name].rest === "GET /health")}`).toBe(HEALTH_ACTION);
  });
});
