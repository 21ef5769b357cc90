import { spawnSync } from "node:child_process";
import { createHmac } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { Webhook, WebhookVerificationError } from "standardwebhooks";
import { checkStandardWebhook, standardWebhooksSecret, verifyWebhookSignature } from "../../../clients/typescript/verify-webhook";
import { signWebhookDelivery, standardWebhooksSecretOf } from "../../../services/webhooks/signing";

/**
 * test/fixtures/webhook-vectors.json is the contract of our webhook signatures: the server's signer
 * must produce it, the official `standardwebhooks` library and a plain HMAC must agree with it, and
 * every verification snippet we hand merchants (TypeScript, Python, PHP) must reach its verdicts.
 */

interface SigningVector {
  name: string;
  deliveryId: string;
  body: string;
  now: number;
  secrets: { secret: string; expiresAt: number | null }[];
  headers: Record<string, string>;
  standardWebhooksSecrets: string[];
}

type Verdict = "valid" | "invalid_headers" | "timestamp_outside_tolerance" | "no_matching_signature";

interface VerifyingVector {
  name: string;
  secret: string;
  standardWebhooksSecret: string;
  body: string;
  headers: Record<string, string>;
  now: number;
  standard: Verdict;
  relay: boolean;
}

const ROOT = path.resolve(__dirname, "../../..");
const VECTORS_FILE = path.join(ROOT, "test/fixtures/webhook-vectors.json");
const vectors = JSON.parse(fs.readFileSync(VECTORS_FILE, "utf8")) as {
  toleranceSeconds: number;
  signing: SigningVector[];
  verifying: VerifyingVector[];
};

const expectedVerdicts = vectors.verifying.map(v => ({ name: v.name, standard: v.standard, relay: v.relay }));

test("the vectors cover what merchants rely on", () => {
  const verdicts = new Set(vectors.verifying.map(v => v.standard));
  expect(verdicts).toEqual(new Set(["valid", "invalid_headers", "timestamp_outside_tolerance", "no_matching_signature"]));
  expect(vectors.signing.some(v => v.headers["webhook-signature"].split(" ").length === 2)).toBe(true);
  expect(vectors.signing.some(v => !v.secrets[0].secret.startsWith("whsec_"))).toBe(true);
  expect(vectors.toleranceSeconds).toBe(300);
});

describe("the server's signer", () => {
  it.each(vectors.signing.map(v => [v.name, v] as const))("%s: produces the vector's headers", (_name, v) => {
    const secrets = v.secrets.map(s => ({ secret: s.secret, expiresAt: s.expiresAt === null ? null : new Date(s.expiresAt * 1000) }));
    expect(signWebhookDelivery({ deliveryId: v.deliveryId, body: v.body, secrets, now: v.now * 1000 + 999 })).toEqual(v.headers);
  });

  it.each(vectors.signing.map(v => [v.name, v] as const))("%s: each signature is the plain HMAC of the spec", (_name, v) => {
    const signed = `${v.deliveryId}.${v.now}.${v.body}`;
    const entries = v.headers["webhook-signature"].split(" ");
    expect(entries).toEqual(
      v.standardWebhooksSecrets.map(
        s =>
          "v1," +
          createHmac("sha256", Buffer.from(s.slice("whsec_".length), "base64"))
            .update(signed)
            .digest("base64")
      )
    );
    expect(v.headers["X-Relay-Signature"]).toBe(
      "sha256=" +
        createHmac("sha256", v.secrets.find(s => s.expiresAt === null)!.secret)
          .update(v.body)
          .digest("hex")
    );
  });

  it("shows each secret in the whsec_ form the vectors give the official libraries", () => {
    for (const v of vectors.verifying) expect(standardWebhooksSecretOf(v.secret)).toBe(v.standardWebhooksSecret);
  });
});

describe("the official standardwebhooks npm package", () => {
  afterEach(() => jest.restoreAllMocks());

  it.each(vectors.signing.map(v => [v.name, v] as const))("%s: signs exactly as we do", (_name, v) => {
    const entries = v.headers["webhook-signature"].split(" ");
    for (const secret of v.standardWebhooksSecrets) {
      expect(entries).toContain(new Webhook(secret).sign(v.deliveryId, new Date(v.now * 1000), v.body));
    }
  });

  it.each(vectors.verifying.map(v => [v.name, v] as const))("%s: reaches the vector's verdict", (_name, v) => {
    jest.spyOn(Date, "now").mockReturnValue(v.now * 1000);
    const verify = () => new Webhook(v.standardWebhooksSecret).verify(v.body, v.headers);
    if (v.standard === "valid") expect(verify()).toEqual(JSON.parse(v.body));
    else expect(verify).toThrow(WebhookVerificationError);
  });
});

test("the TypeScript snippet (clients/typescript/verify-webhook.ts) reaches every verdict", () => {
  const got = vectors.verifying.map(v => ({
    name: v.name,
    standard: checkStandardWebhook(v.body, v.headers, v.secret, { nowSeconds: v.now }),
    relay: verifyWebhookSignature(v.body, v.headers["X-Relay-Signature"], v.secret)
  }));
  expect(got).toEqual(expectedVerdicts);
  for (const v of vectors.verifying) expect(standardWebhooksSecret(v.secret)).toBe(v.standardWebhooksSecret);
});

/** Each snippet prints, for every verifying vector, {standard, relay, whsec}: its verdicts and the secret's whsec_ form. */
interface SnippetAnswer {
  standard: string;
  relay: boolean;
  whsec: string;
}

function expectSnippetVerdicts(answers: SnippetAnswer[]): void {
  expect(answers.map((a, i) => ({ name: vectors.verifying[i].name, standard: a.standard, relay: a.relay }))).toEqual(expectedVerdicts);
  expect(answers.map(a => a.whsec)).toEqual(vectors.verifying.map(v => v.standardWebhooksSecret));
}

function run(command: string, args: string[], input: string): SnippetAnswer[] {
  const result = spawnSync(command, args, { input, encoding: "utf8", cwd: ROOT, timeout: 30_000 });
  if (result.status !== 0) throw new Error(`${command} exited ${result.status}: ${result.stderr}`);
  return JSON.parse(result.stdout) as SnippetAnswer[];
}

const PYTHON_DRIVER = `
import json, sys
sys.path.insert(0, "clients/python")
import verify_webhook as w
vectors = json.load(open(sys.argv[1], encoding="utf-8"))
print(json.dumps([{
    "standard": w.check_standard_webhook(v["body"].encode("utf-8"), v["headers"], v["secret"], now=v["now"]),
    "relay": w.verify_relay_signature(v["body"].encode("utf-8"), v["headers"].get("X-Relay-Signature"), v["secret"]),
    "whsec": w.standard_webhooks_secret(v["secret"]),
} for v in vectors["verifying"]]))
`;

test("the Python snippet (clients/python/verify_webhook.py) reaches every verdict with the standard library alone", () => {
  // -I -S: no site-packages and no environment, so only the standard library can be imported; -B: no __pycache__.
  expectSnippetVerdicts(run("python3", ["-I", "-S", "-B", "-c", PYTHON_DRIVER, VECTORS_FILE], ""));
});

const PHP_DRIVER = `<?php
require 'clients/php/verify-webhook.php';
$vectors = json_decode(file_get_contents($argv[1]), true);
$out = array();
foreach ($vectors['verifying'] as $v) {
    $headers = array_change_key_case($v['headers'], CASE_LOWER);
    $out[] = array(
        'standard' => RelayWebhook::check($v['body'], $headers, $v['secret'], $v['now']),
        'relay' => RelayWebhook::verifyRelaySignature($v['body'], isset($headers['x-relay-signature']) ? $headers['x-relay-signature'] : null, $v['secret']),
        'whsec' => RelayWebhook::standardWebhooksSecret($v['secret']),
    );
}
echo json_encode($out);
`;

const phpFound = spawnSync("php", ["--version"], { stdio: "ignore" }).status === 0;
if (!phpFound && process.env.CI === "true") {
  test("php is installed (CI runs the PHP snippet)", () => {
    throw new Error("php not found: .ci/run installs Debian's php-cli");
  });
} else if (!phpFound) {
  process.stderr.write("\n[notice] skipping the PHP snippet: php not found (apt-get install php-cli)\n");
}

(phpFound ? test : test.skip)("the PHP snippet (clients/php/verify-webhook.php) reaches every verdict with no extension loaded", () => {
  // -n: no php.ini, so no extension beyond those built into PHP.
  expectSnippetVerdicts(run("php", ["-n", "--", VECTORS_FILE], PHP_DRIVER));
});
