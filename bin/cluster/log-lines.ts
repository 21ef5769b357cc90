import { styleText } from "node:util";

type Colour = Parameters<typeof styleText>[0];

const PALETTE: Colour[] = [
  "cyan",
  "magenta",
  "yellow",
  "green",
  "blue",
  "cyanBright",
  "magentaBright",
  "yellowBright",
  "greenBright",
  "blueBright"
];

/** Whole lines out of a stream of chunks; a partial last line waits for its end (or for flush). */
export class LineSplitter {
  private pending = "";

  constructor(private readonly onLine: (line: string) => void) {}

  push(chunk: string): void {
    const lines = (this.pending + chunk).split(/\r?\n/);
    this.pending = lines.pop() ?? "";
    for (const line of lines) this.onLine(line);
  }

  flush(): void {
    if (this.pending) this.onLine(this.pending);
    this.pending = "";
  }
}

/**
 * `name │ line`, names padded to one column, one colour per process when the terminal shows
 * colours; the runner's own lines are bold, its alarms red.
 */
export class Prefixer {
  private readonly width: number;
  private readonly colours = new Map<string, Colour>();

  constructor(
    private readonly runner: string,
    names: string[],
    private readonly colour: boolean
  ) {
    this.width = Math.max(runner.length, ...names.map(n => n.length));
    names.forEach((name, i) => this.colours.set(name, PALETTE[i % PALETTE.length]));
  }

  line(name: string, text: string): string {
    return `${this.paint(this.colours.get(name) ?? "bold", name.padEnd(this.width))} │ ${text}`;
  }

  /** The runner's own line. */
  say(text: string): string {
    return this.line(this.runner, text);
  }

  /** The runner's own line, in red: something went wrong. */
  alarm(text: string): string {
    return `${this.paint(["red", "bold"], this.runner.padEnd(this.width))} │ ${this.paint(["red", "bold"], text)}`;
  }

  private paint(style: Colour, text: string): string {
    return this.colour ? styleText(style, text, { validateStream: false }) : text;
  }
}

/** Colours on a terminal, unless NO_COLOR says otherwise (https://no-color.org); FORCE_COLOR forces them. */
export function wantsColour(stream: NodeJS.WriteStream, env: NodeJS.ProcessEnv): boolean {
  if (env.NO_COLOR) return false;
  if (env.FORCE_COLOR && env.FORCE_COLOR !== "0") return true;
  return Boolean(stream.isTTY);
}
