import { coalescedSend } from "../../middlewares/coalesced-sends.middleware";

const packet = (n: number) => [`TOPIC.${n}`, Buffer.from(String(n)), {}] as [string, Buffer, Record<string, unknown>];

describe("coalescedSend (the packets of one event-loop turn handed over together)", () => {
  test("packets sent in one turn are handed over later, in order, one after the other with no microtask between them", async () => {
    const log: string[] = [];
    const send = coalescedSend(async function (topic) {
      log.push(topic);
      // A microtask queued by the first hand-over must not run before the last one: the client writes once.
      queueMicrotask(() => log.push(`microtask after ${topic}`));
    });
    const sent = [1, 2, 3].map(n => send(...packet(n)));
    expect(log).toEqual([]);
    await Promise.all(sent);
    expect(log.slice(0, 3)).toEqual(["TOPIC.1", "TOPIC.2", "TOPIC.3"]);
  });

  test("a packet the transporter refuses fails alone, with the transporter's error", async () => {
    const send = coalescedSend(function (topic) {
      if (topic === "TOPIC.2") throw new Error("MAX_PAYLOAD_EXCEEDED");
      return Promise.resolve();
    });
    const outcomes = await Promise.allSettled([1, 2, 3].map(n => send(...packet(n))));
    expect(outcomes.map(o => o.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect((outcomes[1] as PromiseRejectedResult).reason).toEqual(new Error("MAX_PAYLOAD_EXCEEDED"));
  });

  test("a rejected hand-over rejects its own packet's promise; the transporter keeps its `this`", async () => {
    const transporter = {
      name: "tx",
      seen: [] as string[],
      send(this: { seen: string[] }, topic: string) {
        this.seen.push(topic);
        return topic === "TOPIC.1" ? Promise.reject(new Error("closed")) : Promise.resolve();
      }
    };
    const send = coalescedSend(transporter.send);
    const outcomes = await Promise.allSettled([1, 2].map(n => send.call(transporter, ...packet(n))));
    expect(outcomes.map(o => o.status)).toEqual(["rejected", "fulfilled"]);
    expect(transporter.seen).toEqual(["TOPIC.1", "TOPIC.2"]);
  });

  test("a packet sent after a turn's hand-over goes with the next turn", async () => {
    const log: string[] = [];
    const send = coalescedSend(async topic => void log.push(topic));
    await send(...packet(1));
    await send(...packet(2));
    expect(log).toEqual(["TOPIC.1", "TOPIC.2"]);
  });
});
