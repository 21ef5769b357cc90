import { startReceiver } from "./receivers";

/**
 * The SMS gateway as tests see it: a loopback receiver the system's `http` SMS provider posts to.
 * The pick-up PIN is read here, from the SMS the recipient would get — never from an API answer.
 */
export interface SmsInbox {
  /** The environment that points a system's SMS provider here. */
  env: Record<string, string>;
  /** The texts received so far for a parcel, oldest first. */
  messagesFor(trackingNumber: string): string[];
  /** The SMS received so far for a parcel, with the number each went to (issue 30: E.164). */
  sentFor(trackingNumber: string): { to: string; message: string }[];
  /** The PIN of the newest pick-up SMS of the parcel; waits until there are at least `count` of them. */
  pinOf(trackingNumber: string, count?: number): Promise<string>;
  /** The code of the newest redirect-code SMS of the parcel; waits until there are at least `count` of them. */
  redirectCodeOf(trackingNumber: string, count?: number): Promise<string>;
  /** The redirect-code SMS of the parcel received so far. */
  redirectCodesFor(trackingNumber: string): string[];
  /** The path of the pick-up SMS's link to the page with the pickup pass (`/t/{token}`); waits for the SMS. */
  passLinkOf(trackingNumber: string): Promise<string>;
  close(): Promise<void>;
}

const PIN_IN_SMS = /Code de retrait: (\d{6})\./;
const REDIRECT_CODE_IN_SMS = /Code (\d{6}): pour changer le point relais/;

export async function startSmsInbox(): Promise<SmsInbox> {
  const receiver = await startReceiver();
  const messagesFor = (trackingNumber: string) =>
    receiver
      .on("/sms")
      .map(r => String((JSON.parse(r.rawBody) as { message: string }).message))
      .filter(text => text.includes(trackingNumber));
  const sentFor = (trackingNumber: string) =>
    receiver
      .on("/sms")
      .map(r => JSON.parse(r.rawBody) as { to: string; message: string })
      .filter(sms => String(sms.message).includes(trackingNumber));
  return {
    sentFor,
    env: { SMS_PROVIDER: "http", SMS_HTTP_URL: `${receiver.url}/sms`, SMS_HTTP_TOKEN: "test-sms-gateway" },
    messagesFor,
    async pinOf(trackingNumber, count = 1) {
      await receiver.waitFor(() => messagesFor(trackingNumber).length >= count);
      const texts = messagesFor(trackingNumber);
      const pin = PIN_IN_SMS.exec(texts[texts.length - 1]);
      if (!pin) throw new Error(`the pick-up SMS of ${trackingNumber} has no PIN`);
      return pin[1];
    },
    async passLinkOf(trackingNumber) {
      await receiver.waitFor(() => messagesFor(trackingNumber).some(text => PIN_IN_SMS.test(text)));
      const pickup = messagesFor(trackingNumber).find(text => PIN_IN_SMS.test(text))!;
      const link = /https?:\/\/[^\s/]+(\/t\/[0-9A-Za-z]{13})$/.exec(pickup);
      if (!link) throw new Error(`the pick-up SMS of ${trackingNumber} has no link to its pass: ${pickup}`);
      return link[1];
    },
    redirectCodesFor: trackingNumber => messagesFor(trackingNumber).filter(text => REDIRECT_CODE_IN_SMS.test(text)),
    async redirectCodeOf(trackingNumber, count = 1) {
      const codes = () => messagesFor(trackingNumber).filter(text => REDIRECT_CODE_IN_SMS.test(text));
      await receiver.waitFor(() => codes().length >= count);
      const all = codes();
      return REDIRECT_CODE_IN_SMS.exec(all[all.length - 1])![1];
    },
    close: () => receiver.close()
  };
}
