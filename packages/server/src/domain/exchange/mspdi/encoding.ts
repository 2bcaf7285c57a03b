import { invalid } from '../../errors.js';

/**
 * What a file's first bytes say of its encoding before any declaration is read (XML 1.0,
 * appendix F): a byte order mark, or `<?` in UTF-16 without one. `decoder` null: an
 * encoding family that is not read at all.
 */
const SIGNATURES: { bytes: number[]; name: string; decoder: 'utf-8' | 'utf-16le' | 'utf-16be' | null }[] = [
  { bytes: [0xef, 0xbb, 0xbf], name: 'UTF-8', decoder: 'utf-8' },
  { bytes: [0x00, 0x00, 0xfe, 0xff], name: 'UTF-32', decoder: null },
  { bytes: [0xff, 0xfe, 0x00, 0x00], name: 'UTF-32', decoder: null },
  { bytes: [0x00, 0x00, 0x00, 0x3c], name: 'UTF-32', decoder: null },
  { bytes: [0x3c, 0x00, 0x00, 0x00], name: 'UTF-32', decoder: null },
  { bytes: [0xfe, 0xff], name: 'UTF-16BE', decoder: 'utf-16be' },
  { bytes: [0xff, 0xfe], name: 'UTF-16LE', decoder: 'utf-16le' },
  { bytes: [0x00, 0x3c, 0x00, 0x3f], name: 'UTF-16BE', decoder: 'utf-16be' },
  { bytes: [0x3c, 0x00, 0x3f, 0x00], name: 'UTF-16LE', decoder: 'utf-16le' },
  { bytes: [0x4c, 0x6f, 0xa7, 0x94], name: 'EBCDIC', decoder: null },
];

const SUPPORTED = 'UTF-8, UTF-16 and the encodings of the WHATWG Encoding Standard (windows-1252, ISO-8859-x, Shift_JIS, EUC-JP, ISO-2022-JP, GB18030, GBK, Big5, EUC-KR, KOI8-R, …) are';

/** `encoding="…"` of the XML declaration that opens `head`, if any. */
function declaredEncoding(head: string): string | null {
  const match = /^<\?xml\s[^?]*?\bencoding\s*=\s*(?:"([^"]*)"|'([^']*)')/.exec(head);
  return match ? (match[1] ?? match[2]!) : null;
}

function refuse(message: string): never {
  throw invalid([{ path: 'data', message }]);
}

/** The decoder's name for an encoding label (`latin1` → `windows-1252`), or null for one it does not know. */
function decoderFor(label: string): string | null {
  try {
    return new TextDecoder(label).encoding;
  } catch {
    return null;
  }
}

/**
 * The text before the first bytes that are not a character in `decoder`: whole chunks
 * while they decode, then byte by byte through the chunk that did not, so finding the
 * place costs about two decodings of the file.
 */
function textBeforeInvalidBytes(bytes: Uint8Array, decoder: string): string {
  const chunk = 4096;
  let failing = bytes.length;
  const scan = new TextDecoder(decoder, { fatal: true });
  for (let offset = 0; offset < bytes.length; offset += chunk) {
    try {
      scan.decode(bytes.subarray(offset, offset + chunk), { stream: true });
    } catch {
      failing = offset;
      break;
    }
  }
  const exact = new TextDecoder(decoder, { fatal: true });
  let text = exact.decode(bytes.subarray(0, failing), { stream: true });
  for (let offset = failing; offset < bytes.length; offset++) {
    try {
      text += exact.decode(bytes.subarray(offset, offset + 1), { stream: true });
    } catch {
      break;
    }
  }
  return text;
}

/** The whole file in `decoder`, or a refusal naming where the first byte that is not a character of it is. */
function decodeStrictly(bytes: Uint8Array, decoder: string, name: string): string {
  try {
    // Streamed, then flushed: Node 20 decodes windows-1252 (and so ISO-8859-1) in one call
    // as if it were Latin-1, 0x80-0x9F as control characters (nodejs/node#56542); streaming
    // goes through ICU's converter, which follows the Encoding Standard.
    const streaming = new TextDecoder(decoder, { fatal: true });
    return streaming.decode(bytes, { stream: true }) + streaming.decode();
  } catch {
    const before = textBeforeInvalidBytes(bytes, decoder);
    const line = before.split('\n').length;
    const column = before.length - before.lastIndexOf('\n');
    return refuse(`is not valid ${name}: the bytes at line ${line}, column ${column} are not a character of that encoding`);
  }
}

/**
 * An XML file's bytes as text, in the encoding the file gives: its byte order mark, else
 * the `encoding` of its XML declaration, else UTF-8 (XML 1.0, 4.3.3 and appendix F).
 * Bytes that are not characters of that encoding, an encoding that is not supported and a
 * declaration that contradicts the byte order mark are refused (400 on `data`), never
 * replaced by U+FFFD.
 */
export function decodeXmlFile(bytes: Uint8Array): string {
  const signature = SIGNATURES.find((candidate) => candidate.bytes.every((byte, index) => bytes[index] === byte));
  if (signature?.decoder === null) refuse(`is in ${signature.name}, which is not supported; ${SUPPORTED}`);
  if (signature !== undefined && signature.decoder !== 'utf-8') {
    const text = decodeStrictly(bytes, signature.decoder, signature.name);
    const declared = declaredEncoding(text);
    if (declared !== null && !decoderFor(declared)?.startsWith('utf-16')) refuse(`is in ${signature.name} but declares the encoding "${declared}"`);
    return text;
  }
  // Every other supported encoding writes the declaration's characters as ASCII does.
  const declared = declaredEncoding(Buffer.from(bytes.subarray(0, 1024)).toString('latin1'));
  if (declared === null) return decodeStrictly(bytes, 'utf-8', 'UTF-8');
  const decoder = decoderFor(declared);
  if (decoder === null) refuse(`declares the encoding "${declared}", which is not supported; ${SUPPORTED}`);
  if (decoder.startsWith('utf-16')) refuse(`declares the encoding "${declared}" but is not in UTF-16 (it has no UTF-16 byte order mark)`);
  if (signature !== undefined && decoder !== 'utf-8') refuse(`starts with a UTF-8 byte order mark but declares the encoding "${declared}"`);
  return decodeStrictly(bytes, decoder, declared);
}
