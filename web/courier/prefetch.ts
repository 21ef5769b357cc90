import { pairing } from "./device";
import { startEarlyReads } from "./early-reads";

/**
 * prefetch.js, loaded by index.html beside main.js (async, so it runs as soon as it arrives, long
 * before the bigger main.js on a slow network): a paired phone opening on the run or on one of its
 * stops (both need the run) starts the run's reads now. A few hundred bytes; nothing else here.
 */
const key = pairing()?.key;
const screen = location.hash.slice(1);
if (key && (screen === "" || screen === "run" || /^stop=\d{1,3}$/.test(screen))) startEarlyReads(key);
