/** Screens by the URL's fragment (#run, #stop=2, #pair=CODE), so that a reload stays where the courier was. */
export type Route = { screen: "pair" } | { screen: "run" } | { screen: "stop"; position: number };

let onNavigate: (route: Route) => void = () => undefined;

export function setNavigator(listener: (route: Route) => void): void {
  onNavigate = listener;
}

export function currentRoute(): Route {
  const hash = location.hash.slice(1);
  if (hash.startsWith("pair")) return { screen: "pair" };
  const stop = /^stop=(\d{1,3})$/.exec(hash);
  return stop ? { screen: "stop", position: Number(stop[1]) } : { screen: "run" };
}

export function go(route: Route): void {
  const hash = route.screen === "stop" ? `#stop=${route.position}` : `#${route.screen}`;
  if (location.hash !== hash) history.pushState(null, "", hash);
  onNavigate(route);
}

// Back, forward, and an address typed or opened with another fragment (pushState itself fires nothing).
window.addEventListener("hashchange", () => onNavigate(currentRoute()));
