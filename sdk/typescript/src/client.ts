import { HttpClient } from "./core/http.js";
import type { ClientOptions, RequestOptions } from "./core/options.js";
import type { WithResponse } from "./core/response-info.js";
import { Account, Claims, Cod, Events, RelayPoints, Returns, Sandbox, WalletResource } from "./resources/others.js";
import { Parcels } from "./resources/parcels.js";
import type { Health } from "./types.js";
import { webhooks } from "./webhooks.js";

/**
 * The relay-parcels partner API:
 *
 *   const relay = new RelayParcels({ apiKey: process.env.RELAY_API_KEY!, baseUrl: "https://api.example.dz" });
 *   const parcel = await relay.parcels.create({ recipientName: "Amina B.", recipientPhone: "+213 555 12 34 56", weightG: 1200, destinationRelayCode: "DZ-16-ALGER-CENTRE" });
 */
export class RelayParcels {
  readonly parcels: Parcels;
  readonly returns: Returns;
  readonly claims: Claims;
  readonly relayPoints: RelayPoints;
  readonly wallet: WalletResource;
  readonly cod: Cod;
  readonly sandbox: Sandbox;
  readonly events: Events;
  readonly webhooks = webhooks;
  private readonly http: HttpClient;
  private readonly account: Account;

  constructor(options: ClientOptions) {
    this.http = new HttpClient(options);
    this.parcels = new Parcels(this.http);
    this.returns = new Returns(this.http);
    this.claims = new Claims(this.http);
    this.relayPoints = new RelayPoints(this.http);
    this.wallet = new WalletResource(this.http);
    this.cod = new Cod(this.http);
    this.sandbox = new Sandbox(this.http);
    this.events = new Events(this.http);
    this.account = new Account(this.http);
  }

  /** Checks the key: the answer names its organisation and mode. */
  health(options?: RequestOptions): Promise<WithResponse<Health>> {
    return this.account.health(options);
  }
}
