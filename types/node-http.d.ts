// Node stores the `connectionsCheckingInterval` option of createServer on the server and reads it
// when the server starts listening; its typings only know the option, not the property.
import "node:http";

declare module "node:http" {
  interface Server {
    connectionsCheckingInterval: number;
  }
}
