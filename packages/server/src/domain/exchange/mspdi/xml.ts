import { limits } from '@gantry/contract';
import { SaxesParser } from 'saxes';
import { invalid } from '../../errors.js';

/** An element as read: its text (trimmed) and its child elements by local name, in file order. */
export interface XmlElement {
  readonly name: string;
  readonly namespace: string;
  text: string;
  children: Map<string, XmlElement[]> | null;
}

/** Where the parser stands, as a person finds it in an editor (both 1-based). */
function at(parser: SaxesParser): string {
  return `line ${parser.line}, column ${parser.column}`;
}

/**
 * Parses an uploaded XML file with a conforming, namespace-aware XML 1.0 parser (saxes):
 * anything not well-formed — a malformed comment, an undefined entity, an undeclared
 * prefix, a second root, a character XML does not allow, even as a reference — is refused
 * with its line and column. A DTD of any kind is refused (MSPDI files have none), so no
 * entity is ever declared, expanded or fetched: only XML's five predefined entities and
 * character references are read. Elements of other namespaces than the root's are left
 * out with what they hold.
 */
export function parseXml(xml: string): XmlElement {
  if (xml.length > limits.requestBodyMaxBytes) {
    throw invalid([{ path: 'data', message: `the file is larger than ${limits.requestBodyMaxBytes} bytes` }]);
  }
  const parser = new SaxesParser({ xmlns: true });
  const open: XmlElement[] = [];
  let root: XmlElement | null = null;
  /** Depth within an element of another namespace, whose content is not kept (0: none open). */
  let foreignDepth = 0;
  parser.on('error', (error) => {
    throw invalid([{ path: 'data', message: `not well-formed XML (${at(parser)}): ${error.message.replace(/^\d+:\d+: /, '')}` }]);
  });
  parser.on('doctype', () => {
    throw invalid([{ path: 'data', message: `the file declares a DOCTYPE (${at(parser)}), which Microsoft Project XML files never do` }]);
  });
  parser.on('opentag', (tag) => {
    if (open.length + foreignDepth >= limits.importXmlDepthMax) {
      throw invalid([{ path: 'data', message: `elements nested deeper than ${limits.importXmlDepthMax} levels (${at(parser)})` }]);
    }
    const parent = open.at(-1);
    if (foreignDepth > 0 || (root !== null && tag.uri !== root.namespace)) {
      foreignDepth++;
      return;
    }
    const element: XmlElement = { name: tag.local, namespace: tag.uri, text: '', children: null };
    if (parent) {
      parent.children ??= new Map();
      const siblings = parent.children.get(element.name);
      if (siblings) siblings.push(element);
      else parent.children.set(element.name, [element]);
    } else {
      root = element;
    }
    open.push(element);
  });
  parser.on('closetag', () => {
    if (foreignDepth > 0) {
      foreignDepth--;
      return;
    }
    const element = open.pop()!;
    element.text = element.text.trim();
  });
  const appendText = (text: string) => {
    if (foreignDepth === 0 && open.length > 0) open.at(-1)!.text += text;
  };
  parser.on('text', appendText);
  parser.on('cdata', appendText);
  parser.write(xml).close();
  return root!;
}

/** The first child element `name`, or null. */
export function child(element: XmlElement | null, name: string): XmlElement | null {
  return element?.children?.get(name)?.[0] ?? null;
}

/** The child elements `name`, in file order. */
export function children(element: XmlElement | null, name: string): readonly XmlElement[] {
  return element?.children?.get(name) ?? [];
}

/** The text of the child element `name`, or null when it is missing or empty. */
export function text(element: XmlElement, name: string): string | null {
  const value = child(element, name)?.text;
  return value ? value : null;
}

export function numberOf(element: XmlElement, name: string): number | null {
  const value = text(element, name);
  const parsed = value === null ? NaN : Number(value);
  return Number.isFinite(parsed) ? parsed : null;
}

export function flag(element: XmlElement, name: string): boolean {
  const value = text(element, name);
  return value === '1' || value === 'true';
}
