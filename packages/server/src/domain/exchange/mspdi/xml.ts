import { limits } from '@gantry/contract';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { invalid } from '../../errors.js';

/** An element as the parser gives it: leaf elements are strings, repeated ones (see `LISTS`) arrays. */
export interface XmlElement {
  [name: string]: XmlValue;
}
export type XmlValue = string | XmlElement | XmlValue[];

/** Elements that may repeat: always read as arrays, whether the file has one or many. */
const LISTS = new Set(['Calendar', 'WeekDay', 'WorkingTime', 'Exception', 'WorkWeek', 'Task', 'PredecessorLink', 'Baseline', 'Resource', 'Assignment', 'ExtendedAttribute', 'TimephasedData']);

/** The five entities XML predefines, and character references: all a document without a DTD may use. */
const REFERENCE = /&(?:#x([0-9a-fA-F]{1,6})|#([0-9]{1,7})|(lt|gt|amp|apos|quot));/g;
const PREDEFINED: Record<string, string> = { lt: '<', gt: '>', amp: '&', apos: "'", quot: '"' };

function decodeReferences(text: string): string {
  return text.replace(REFERENCE, (reference, hex: string | undefined, decimal: string | undefined, name: string | undefined) => {
    if (name !== undefined) return PREDEFINED[name]!;
    const codePoint = hex !== undefined ? parseInt(hex, 16) : Number(decimal);
    return codePoint <= 0x10ffff ? String.fromCodePoint(codePoint) : reference;
  });
}

/**
 * Parses an uploaded XML file, refusing what could make parsing costly or reach outside:
 * a DTD of any kind is refused before the parser sees the text (MSPDI files have none),
 * so no entity is ever declared, expanded or fetched; the parser's own entity handling is
 * off and only XML's predefined entities and character references are decoded.
 */
export function parseXml(xml: string): XmlElement {
  if (Buffer.byteLength(xml, 'utf8') > limits.requestBodyMaxBytes) {
    throw invalid([{ path: 'data', message: `the file is larger than ${limits.requestBodyMaxBytes} bytes` }]);
  }
  if (/<!(?:DOCTYPE|ENTITY)/i.test(xml)) {
    throw invalid([{ path: 'data', message: 'the file declares a DOCTYPE or entities, which Microsoft Project XML files never do' }]);
  }
  const validation = XMLValidator.validate(xml);
  if (validation !== true) {
    throw invalid([{ path: 'data', message: `not well-formed XML (line ${validation.err.line}): ${validation.err.msg}` }]);
  }
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '@_',
    parseTagValue: false,
    parseAttributeValue: false,
    processEntities: false,
    htmlEntities: false,
    ignoreDeclaration: true,
    ignorePiTags: true,
    maxNestedTags: limits.importXmlDepthMax,
    isArray: (name) => LISTS.has(name),
    tagValueProcessor: (_name, value) => decodeReferences(value),
  });
  try {
    return parser.parse(xml) as XmlElement;
  } catch {
    throw invalid([{ path: 'data', message: `elements nested deeper than ${limits.importXmlDepthMax} levels` }]);
  }
}

/** The child element `name`, or null. */
export function child(element: XmlElement, name: string): XmlElement | null {
  const value = element[name];
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === 'object' && first !== null && !Array.isArray(first) ? first : null;
}

/** The repeated child elements `name` (empty ones included as `{}`). */
export function children(element: XmlElement | null, name: string): XmlElement[] {
  const value = element?.[name];
  if (value === undefined) return [];
  return (Array.isArray(value) ? value : [value]).map((item) => (typeof item === 'object' && !Array.isArray(item) ? item : {}));
}

/** The text of the leaf element `name`, or null when it is missing or empty. */
export function text(element: XmlElement, name: string): string | null {
  const value = element[name];
  return typeof value === 'string' && value !== '' ? value : null;
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
