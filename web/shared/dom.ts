/**
 * The apps' whole UI toolkit (the counter app's, and the courier app's to come): `h()` builds an
 * element from its tag, attributes and children. Screens are small functions that return a fresh
 * element tree, redrawn on each change (see docs/decisions/0033: screens of forms and lists need
 * no virtual DOM).
 */
export type Child = Node | string | number | null | undefined | false | Child[];
type Handler = (event: Event) => void;
export type Props = Record<string, string | number | boolean | null | undefined | Handler>;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Props | null = null,
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(props ?? {})) {
    if (value === null || value === undefined || value === false) continue;
    if (typeof value === "function") element.addEventListener(name.slice(2).toLowerCase(), value);
    else if (name === "value") (element as HTMLInputElement).value = String(value);
    else element.setAttribute(name, value === true ? "" : String(value));
  }
  append(element, children);
  return element;
}

function append(parent: Node, children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(parent, child);
    else parent.appendChild(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Text that must stay left to right inside Arabic (tracking numbers, PINs, amounts, codes). */
export function ltr(text: string | number): HTMLElement {
  return h("bdi", { dir: "ltr", class: "ltr" }, String(text));
}

/** A status line read out by screen readers when it changes. */
export function notice(kind: "ok" | "error" | "info", ...content: Child[]): HTMLElement {
  return h("p", { class: `notice notice-${kind}`, role: kind === "error" ? "alert" : "status" }, ...content);
}
