/**
 * Preloaded into every process the cluster runner starts (`node --require`). The runner puts each
 * child in its own process group, so that one Ctrl-C reaches the runner alone and each child gets
 * exactly one SIGTERM, from it; the price is that a runner killed outright (SIGKILL) would leave
 * its children running, still in the namespace and holding their ports. This notices that the
 * parent is gone and stops the process the ordinary way, once.
 */
const parent = process.ppid;
const watch = setInterval(() => {
  if (process.ppid === parent) return;
  clearInterval(watch);
  process.kill(process.pid, "SIGTERM");
}, 1000);
watch.unref();

export {};
