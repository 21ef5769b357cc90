export interface ReadinessTarget {
  name: string;
  url: string;
}

export interface WaitOptions {
  /** Stops the wait (the cluster is stopping); the promise then resolves to false. */
  signal: AbortSignal;
  /** Called every `noticeEveryMs` with what is not ready yet. */
  onStillWaiting: (names: string[]) => void;
  pollMs?: number;
  noticeEveryMs?: number;
}

async function answers200(url: string): Promise<boolean> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
    await res.body?.cancel();
    return res.status === 200;
  } catch {
    return false;
  }
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>(resolve => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true }
    );
  });

/** Polls each URL until it answers 200. No time-out: the runner says what it is waiting for. */
export async function waitUntilReady(targets: ReadinessTarget[], options: WaitOptions): Promise<boolean> {
  const pollMs = options.pollMs ?? 250;
  const noticeEveryMs = options.noticeEveryMs ?? 15_000;
  const waiting = new Map(targets.map(t => [t.name, t.url]));
  let nextNotice = Date.now() + noticeEveryMs;
  while (waiting.size > 0) {
    if (options.signal.aborted) return false;
    const checks = await Promise.all([...waiting].map(async ([name, url]) => [name, await answers200(url)] as const));
    for (const [name, ready] of checks) if (ready) waiting.delete(name);
    if (waiting.size === 0) break;
    if (Date.now() >= nextNotice) {
      options.onStillWaiting([...waiting.keys()]);
      nextNotice = Date.now() + noticeEveryMs;
    }
    await sleep(pollMs, options.signal);
  }
  return !options.signal.aborted;
}
