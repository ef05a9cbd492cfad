/**
 * The characters of an XML body's bytes, in the encoding the body is in (RFC 7303 §3, XML 1.0 appendix F):
 * a byte order mark first, then the charset of the Content-Type, then the XML declaration's encoding, else
 * UTF-8. Bytes that are not valid in that encoding are refused, never replaced: a partner's "é" sent in
 * Latin-1 and read as UTF-8 would be stored as "�".
 */
export type DecodedXml = { text: string } | { issue: string };

const BOMS: { bytes: number[]; encoding: string }[] = [
  { bytes: [0xef, 0xbb, 0xbf], encoding: 'utf-8' },
  { bytes: [0xff, 0xfe], encoding: 'utf-16le' },
  { bytes: [0xfe, 0xff], encoding: 'utf-16be' },
];

/** The encoding named by the declaration (`<?xml version="1.0" encoding="ISO-8859-1"?>`), read as ASCII. */
function declaredEncoding(bytes: Uint8Array): string | undefined {
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 200));
  return /^<\?xml[^>]*?\sencoding\s*=\s*["']([A-Za-z][\w.:-]*)["']/.exec(head)?.[1];
}

/** The encoding to read the body in, and what named it, in the order RFC 7303 gives. */
function encodingOf(bytes: Uint8Array, charset: string | undefined): { label: string; namedBy: string } {
  const bom = BOMS.find((b) => b.bytes.every((byte, i) => bytes[i] === byte));
  if (bom) return { label: bom.encoding, namedBy: 'its byte order mark' };
  if (charset) return { label: charset, namedBy: 'the Content-Type charset' };
  const declared = declaredEncoding(bytes);
  if (declared) return { label: declared, namedBy: 'its XML declaration' };
  return { label: 'utf-8', namedBy: 'the default' };
}

export function decodeXml(bytes: Uint8Array, charset: string | undefined): DecodedXml {
  const { label, namedBy } = encodingOf(bytes, charset);
  let decoder;
  try {
    decoder = new TextDecoder(label, { fatal: true });
  } catch {
    return {
      issue: `The document's encoding "${label}" is not an encoding this service reads: send it in UTF-8 (or another encoding of the WHATWG Encoding Standard, named in its XML declaration or the Content-Type's charset).`,
    };
  }
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    return {
      issue: `The body is not valid ${decoder.encoding.toUpperCase()} (the encoding ${namedBy} names): name the encoding it is in with encoding="…" in its XML declaration or the Content-Type's charset, or send it in UTF-8.`,
    };
  }
  // The text is characters now: a declaration naming the bytes' encoding would mislead the parsers that read it again.
  return { text: text.replace(/^(<\?xml[^>]*?\sencoding\s*=\s*)(["'])[^"']*\2/, '$1$2UTF-8$2') };
}
