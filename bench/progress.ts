/**
 * One status line on stderr, rewritten in place on a terminal, one line per step otherwise.
 * Results go to stdout, so `npm run bench > out.txt` keeps only the results.
 */
export class Progress {
  private readonly started = Date.now();
  private step = 0;
  private readonly tty = Boolean(process.stderr.isTTY);

  constructor(private readonly plannedSteps: number) {}

  private elapsed(): string {
    const s = Math.round((Date.now() - this.started) / 1000);
    return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
  }

  /** A new step (one load, one seeding, one start-up). */
  next(label: string): void {
    this.step++;
    this.show(label);
  }

  show(label: string): void {
    const line = `[${this.elapsed()} · step ${this.step}/~${Math.max(this.step, this.plannedSteps)}] ${label}`;
    if (this.tty) process.stderr.write(`\r\x1b[2K${line.slice(0, (process.stderr.columns ?? 120) - 1)}`);
    else process.stderr.write(`${line}\n`);
  }

  /** Prints a finished result above the status line. */
  print(text: string): void {
    if (this.tty) process.stderr.write("\r\x1b[2K");
    process.stdout.write(`${text}\n`);
  }

  done(): void {
    if (this.tty) process.stderr.write("\r\x1b[2K");
  }
}
