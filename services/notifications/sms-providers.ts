import fs from "node:fs";
import path from "node:path";
import axios from "axios";
import type { Logger } from "moleculer";
import type { AppConfig } from "../../lib/config";
import { ConfigError } from "../../lib/config";
import { maskPhone } from "../../lib/recipient-phone";

export type SmsProviderName = AppConfig["sms"]["provider"];

export interface OutgoingSms {
  /** Our message id: also sent as Idempotency-Key, so a gateway can drop a retried duplicate. */
  id: string;
  to: string;
  body: string;
}

export interface SmsProvider {
  readonly name: SmsProviderName;
  /** Resolves once the provider has accepted the message; throws SmsSendError otherwise. */
  send(sms: OutgoingSms): Promise<{ providerMessageId: string | null }>;
}

/**
 * A refused send. The message is ours and never contains the phone number (axios errors carry
 * the request body, so they are never passed on or logged as they are).
 */
export class SmsSendError extends Error {
  constructor(
    message: string,
    /** True when retrying cannot help (the gateway refused the request itself). */
    readonly permanent: boolean
  ) {
    super(message);
    this.name = "SmsSendError";
  }
}

export const SMS_HTTP_TIMEOUT_MS = 10_000;

// Masking moved to lib/ when parcels began listing numbers for operators (issue 30).
export { maskPhone };

/** Stores only: the message row is the SMS (development, demos, CI). */
export class LogSmsProvider implements SmsProvider {
  readonly name = "log" as const;

  constructor(private readonly logger: Logger) {}

  async send(sms: OutgoingSms): Promise<{ providerMessageId: string | null }> {
    this.logger.info(`SMS sent to ${maskPhone(sms.to)} (message ${sms.id}, ${sms.body.length} characters; log provider, not transmitted)`);
    return { providerMessageId: null };
  }
}

/** Where the file provider writes: one JSON object per SMS, in the order they were sent. */
export const SMS_OUTBOX_FILE = "sms-outbox.jsonl";

/**
 * A developer's phone: each SMS as it would be sent — pick-up PIN included — appended to
 * `DATA_DIR/sms-outbox.jsonl`, readable by its owner only, so that a live hand-over can be tried on
 * one machine without an SMS gateway. A file, not a log line: the PIN never reaches the logs.
 */
export class FileSmsProvider implements SmsProvider {
  readonly name = "file" as const;
  readonly file: string;
  /** DATA_DIR exists in embedded mode only: made once, at the first SMS. */
  private folder: Promise<unknown> | null = null;

  constructor(
    dataDir: string,
    private readonly logger: Logger
  ) {
    this.file = path.join(dataDir, SMS_OUTBOX_FILE);
  }

  async send(sms: OutgoingSms): Promise<{ providerMessageId: string | null }> {
    const line = JSON.stringify({ id: sms.id, to: sms.to, body: sms.body, sentAt: new Date().toISOString() });
    await (this.folder ??= fs.promises.mkdir(path.dirname(this.file), { recursive: true, mode: 0o700 }));
    // Created owner-only (a umask can only narrow it).
    await fs.promises.appendFile(this.file, `${line}\n`, { mode: 0o600 });
    this.logger.info(`SMS sent to ${maskPhone(sms.to)} (message ${sms.id}; file provider: written to ${this.file})`);
    return { providerMessageId: null };
  }
}

/**
 * POSTs `{to, message}` as JSON to an SMS gateway with a bearer token; any 2xx is accepted.
 * Redirects are not followed, so the token only ever goes to the configured URL.
 */
export class HttpSmsProvider implements SmsProvider {
  readonly name = "http" as const;

  constructor(
    private readonly url: string,
    private readonly token: string | null,
    private readonly logger: Logger,
    private readonly timeoutMs: number = SMS_HTTP_TIMEOUT_MS
  ) {}

  async send(sms: OutgoingSms): Promise<{ providerMessageId: string | null }> {
    const headers: Record<string, string> = { "Content-Type": "application/json", "Idempotency-Key": sms.id };
    if (this.token) headers.Authorization = `Bearer ${this.token}`;
    let status: number;
    let data: unknown;
    try {
      const response = await axios.post(
        this.url,
        { to: sms.to, message: sms.body },
        { headers, timeout: this.timeoutMs, maxRedirects: 0, validateStatus: () => true, responseType: "json" }
      );
      status = response.status;
      data = response.data;
    } catch (err) {
      throw new SmsSendError(describeTransportError(err, this.timeoutMs), false);
    }
    if (status >= 200 && status < 300) {
      this.logger.info(`SMS sent to ${maskPhone(sms.to)} (message ${sms.id}, gateway answered ${status})`);
      return { providerMessageId: providerIdOf(data) };
    }
    // 408/425/429 and 5xx say "later"; any other 4xx says the request itself is refused.
    const permanent = status >= 400 && status < 500 && ![408, 425, 429].includes(status);
    throw new SmsSendError(`SMS gateway answered HTTP ${status}`, permanent);
  }
}

function describeTransportError(err: unknown, timeoutMs: number): string {
  const code = (err as { code?: unknown }).code;
  if (code === "ECONNABORTED" || code === "ETIMEDOUT") return `SMS gateway did not answer within ${timeoutMs} ms`;
  return typeof code === "string" ? `SMS gateway unreachable (${code})` : "SMS gateway unreachable";
}

function providerIdOf(data: unknown): string | null {
  if (!data || typeof data !== "object") return null;
  const record = data as Record<string, unknown>;
  const id = record.id ?? record.messageId ?? record.message_id;
  return typeof id === "string" || typeof id === "number" ? String(id).slice(0, 200) : null;
}

/** Fails at start, not at the first SMS, when the http provider has nowhere to post. */
export function createSmsProvider(sms: AppConfig["sms"], logger: Logger, dataDir: string): SmsProvider {
  if (sms.provider === "log") return new LogSmsProvider(logger);
  if (sms.provider === "file") {
    if (dataDir.startsWith("memory://")) throw new ConfigError("SMS_PROVIDER=file needs DATA_DIR to be a folder");
    return new FileSmsProvider(dataDir, logger);
  }
  if (!sms.httpUrl) throw new ConfigError("SMS_HTTP_URL is required when SMS_PROVIDER=http");
  let url: URL;
  try {
    url = new URL(sms.httpUrl);
  } catch {
    throw new ConfigError("SMS_HTTP_URL must be an absolute http(s) URL");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new ConfigError("SMS_HTTP_URL must be an absolute http(s) URL");
  if (!sms.httpToken) logger.warn("SMS_HTTP_TOKEN is not set: SMS requests are sent without an Authorization header");
  return new HttpSmsProvider(url.toString(), sms.httpToken, logger);
}
