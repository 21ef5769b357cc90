import { cashContract } from "./cash-contract";
import { codContract } from "./cod-contract";
import { fuzzContract } from "./fuzz-contract";
import { gatewayContract, SystemUnderTest } from "./gateway-contract";
import { hostileInputContract } from "./hostile-input-contract";
import { merchantContract } from "./merchant-contract";
import { networkContract } from "./network-contract";
import { parcelsContract } from "./parcels-contract";
import { printingContract } from "./printing-contract";
import { publicRelayPointsContract } from "./public-relay-points-contract";
import { publicTrackingContract } from "./public-tracking-contract";
import { dayAtTheCounterContract } from "./relay-contract";
import { webhooksContract } from "./webhooks-contract";

/**
 * Every shared contract, in one order, for each way of running the system (embedded, distributed,
 * `npm run start:cluster`): a contract added here runs in all three.
 */
export function everyContract(system: () => SystemUnderTest): void {
  describe("gateway contract", () => gatewayContract(system));
  describe("parcels and wallet contract", () => parcelsContract(system));
  describe("merchant surface: events, quotes, relay search, wallet", () => merchantContract(system));
  describe("public tracking", () => publicTrackingContract(system));
  describe("public relay-point search", () => publicRelayPointsContract(system));
  describe("labels and batches", () => printingContract(system));
  describe("hostile input", () => hostileInputContract(system));
  describe("webhooks and events", () => webhooksContract(system));
  describe("cash on delivery and the pick-up PIN", () => codContract(system));
  describe("a relay point's counter", () => dayAtTheCounterContract(system));
  describe("the first and middle mile: pickups, couriers, hubs", () => networkContract(system));
  describe("cash on delivery custody: counter, courier, hub, merchant", () => cashContract(system));
  describe("fuzz", () => fuzzContract(system));
}
