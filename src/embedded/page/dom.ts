/** A few lines of DOM building instead of a framework: elements from a tag, properties and children. */
type Child = Node | string | false | null | undefined;
type Props = Record<string, string | number | boolean | EventListener | undefined>;

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, props: Props = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) {
    if (value === undefined || value === false) continue;
    if (typeof value === 'function') element.addEventListener(name.slice(2).toLowerCase(), value);
    else if (name === 'class') element.className = String(value);
    else if (value === true) element.setAttribute(name, '');
    else element.setAttribute(name, String(value));
  }
  for (const child of children) if (child !== false && child !== null && child !== undefined) element.append(child);
  return element;
}

let counter = 0;
/** A unique id to tie a label or description to its control. */
export const uid = (prefix: string) => `${prefix}-${++counter}`;
