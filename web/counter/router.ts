/** Screens by name in the URL's fragment (#today, #receive…), so that a reload stays on its screen. */
export type Screen = "pair" | "today" | "receive" | "handover" | "refuse" | "dropoff" | "dispatch" | "till" | "closure" | "courier";

const SCREENS: readonly Screen[] = ["pair", "today", "receive", "handover", "refuse", "dropoff", "dispatch", "till", "closure", "courier"];

let onNavigate: (screen: Screen) => void = () => undefined;

export function setNavigator(listener: (screen: Screen) => void): void {
  onNavigate = listener;
}

export function currentScreen(): Screen {
  const name = location.hash.slice(1).split("=")[0] as Screen;
  return SCREENS.includes(name) ? name : "today";
}

export function go(screen: Screen): void {
  if (location.hash !== `#${screen}`) history.pushState(null, "", `#${screen}`);
  onNavigate(screen);
}

window.addEventListener("popstate", () => onNavigate(currentScreen()));
