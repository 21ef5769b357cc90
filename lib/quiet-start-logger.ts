import { Loggers } from "moleculer";

type LoggerBindings = Parameters<InstanceType<typeof Loggers.Console>["getLogHandler"]>[0];
type LogHandler = (type: string, args: unknown[]) => void;

/**
 * What Moleculer and moleculer-web say at info while a broker starts: its settings, each service
 * registered and started, the wait for a dependency. In one process that runs everything (`npm
 * start`) it is thirty lines that push the banner, the URLs and the demo keys off the screen, and
 * it tells nothing the banner does not. The broker's closing "started successfully" line stays.
 */
const START_UP_CHATTER: ReadonlyArray<{ module: RegExp; message: RegExp }> = [
  { module: /^broker$/, message: /^(Moleculer v\S+ is starting|Namespace: |Node ID: |Serializer: |Registered \d+ middleware)/ },
  { module: /^registry$/, message: /^(Strategy: |Discoverer: |'[^']+' service is registered\.)/ },
  { module: /^gateway$/, message: /^API Gateway (server created|listening on )/ },
  { module: /./, message: /^(Service '[^']+' started\.|Waiting for service\(s\) |Service\(s\) '[^']+' are available\.)/ }
];

export function isStartUpChatter(module: string, args: readonly unknown[]): boolean {
  const message = args[0];
  return typeof message === "string" && START_UP_CHATTER.some(rule => rule.module.test(module) && rule.message.test(message));
}

/**
 * The Console logger, with the start-up chatter above written at debug instead of info: gone at
 * the default level, back with LOG_LEVEL=debug. Used where one process runs every service.
 */
export class QuietStartConsoleLogger extends Loggers.Console {
  override getLogHandler(bindings: LoggerBindings): LogHandler | null {
    const handler = super.getLogHandler(bindings) as LogHandler | null;
    if (!handler) return null;
    const module = (bindings.mod ?? "").toLowerCase();
    return (type, args) => handler(type === "info" && isStartUpChatter(module, args) ? "debug" : type, args);
  }
}
