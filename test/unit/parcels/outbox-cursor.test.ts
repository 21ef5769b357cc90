import { OutboxCursor } from "../../../services/parcels/outbox-cursor";

/** Decision 0041: the relay reads after the last event it handed over, and from the first one every second. */
describe("the outbox relay's cursor", () => {
  let now = 0;
  const cursor = () => new OutboxCursor(1_000, () => now);
  beforeEach(() => (now = 0));

  test("the first read starts from the first event, the next ones after the last event handed over", () => {
    const c = cursor();
    expect(c.readFrom()).toBe("0");
    c.handedOver(["7", "12", "9"]);
    now = 5;
    expect(c.readFrom()).toBe("12");
    c.handedOver(["13"]);
    expect(c.readFrom()).toBe("13");
  });

  test("a full read comes back once a second, so an event that committed late is read within it", () => {
    const c = cursor();
    c.readFrom();
    c.handedOver(["40"]);
    now = 999;
    expect(c.readFrom()).toBe("40");
    now = 1_000;
    expect(c.readFrom()).toBe("0");
    now = 1_500;
    expect(c.readFrom()).toBe("40");
  });

  test("a pass that kept some rows back sends the next read to the first event again", () => {
    const c = cursor();
    c.readFrom();
    c.handedOver(["5"]);
    c.keptSome();
    now = 10;
    expect(c.readFrom()).toBe("0");
  });

  test("ids beyond 2^53 are compared exactly", () => {
    const c = cursor();
    c.readFrom();
    c.handedOver(["9007199254740993", "9007199254740992"]);
    now = 1;
    expect(c.readFrom()).toBe("9007199254740993");
  });
});
