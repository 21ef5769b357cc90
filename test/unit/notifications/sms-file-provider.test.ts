import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Logger } from "moleculer";
import { ConfigError, loadConfig } from "../../../lib/config";
import { createSmsProvider, SMS_OUTBOX_FILE } from "../../../services/notifications/sms-providers";

const lines: string[] = [];
const logger = { info: (line: string) => lines.push(line), warn: () => undefined } as unknown as Logger;

describe("SMS_PROVIDER=file (a developer's phone)", () => {
  test("each SMS, PIN and all, is appended to DATA_DIR/sms-outbox.jsonl, readable by its owner only; the log line has neither", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "relay-sms-"));
    const provider = createSmsProvider({ provider: "file", httpUrl: null, httpToken: null }, logger, dataDir);
    expect(provider.name).toBe("file");
    await provider.send({ id: "m1", to: "+213 555 12 34 67", body: "Votre colis est arrivé. Code de retrait : 482913" });
    await provider.send({ id: "m2", to: "0661000000", body: "Second" });

    const file = path.join(dataDir, SMS_OUTBOX_FILE);
    const sent = fs
      .readFileSync(file, "utf8")
      .trim()
      .split("\n")
      .map(line => JSON.parse(line));
    expect(sent.map(({ id, to, body }) => ({ id, to, body }))).toEqual([
      { id: "m1", to: "+213 555 12 34 67", body: "Votre colis est arrivé. Code de retrait : 482913" },
      { id: "m2", to: "0661000000", body: "Second" }
    ]);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(lines.join("\n")).not.toContain("482913");
    expect(lines.join("\n")).not.toContain("555 12 34 67");
  });

  test("the configuration accepts it; an in-memory DATA_DIR has nowhere to write it", () => {
    expect(loadConfig({ SMS_PROVIDER: "file" }).sms.provider).toBe("file");
    expect(() => loadConfig({ SMS_PROVIDER: "carrier-pigeon" })).toThrow(/SMS_PROVIDER must be "log", "http" or "file"/);
    expect(() => createSmsProvider({ provider: "file", httpUrl: null, httpToken: null }, logger, "memory://x")).toThrow(ConfigError);
  });
});
