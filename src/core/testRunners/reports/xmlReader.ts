import { TestReportError } from '../errors';

/**
 * A small, strict XML reader for test reports (pytest's JUnit XML): elements, attributes, text, CDATA, comments and
 * processing instructions, the five predefined entities and character references. A document type declaration, any
 * other entity, a mismatched tag or text outside the root is an error: a report is written by a runner, so
 * anything else means it was not, and is refused rather than guessed at. No entity is ever expanded from the
 * document, nesting is bounded, and each element keeps at most 64 KiB of its text.
 */

/** One element of a document read by {@link readXml}. */
export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  /** The element's own text (CDATA included), entity references decoded; at most 64 KiB. */
  text: string;
}

const MAX_DEPTH = 64;
const MAX_TEXT = 64 * 1024;
const NAME = /[A-Za-z_:][A-Za-z0-9_:.-]*/y;
const ATTRIBUTE = /\s+([A-Za-z_:][A-Za-z0-9_:.-]*)\s*=\s*(?:"([^"<]*)"|'([^'<]*)')/y;
const TAG_END = /\s*(\/?)>/y;
const ENTITY = /&([^;&\s]{1,10});/g;
const PREDEFINED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

function invalid(why: string, at: number): TestReportError {
  return new TestReportError(`The XML report is not well-formed: ${why} (at character ${at}).`, { at });
}

function decode(text: string, at: number): string {
  if (!text.includes('&')) return text;
  const decoded = text.replace(ENTITY, (_, ref: string) => {
    if (ref in PREDEFINED) return PREDEFINED[ref]!;
    const code = /^#x([0-9a-fA-F]{1,6})$/.exec(ref)?.[1] ?? /^#([0-9]{1,7})$/.exec(ref)?.[1];
    if (code === undefined) throw invalid(`unknown entity &${ref};`, at);
    const value = ref.startsWith('#x') ? parseInt(code, 16) : Number(code);
    if (value === 0 || value > 0x10ffff || (value >= 0xd800 && value <= 0xdfff))
      throw invalid(`bad character reference &${ref};`, at);
    return String.fromCodePoint(value);
  });
  if (/&(?![^;&\s]{1,10};)/.test(text)) throw invalid('a bare &', at);
  return decoded;
}

/** Reads a whole document and returns its root element; throws {@link TestReportError} when it is not well-formed. */
export function readXml(source: string): XmlElement {
  const text = source.charCodeAt(0) === 0xfeff ? source.slice(1) : source;
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  let pos = 0;
  const addText = (chunk: string, at: number): void => {
    const top = stack.at(-1);
    if (!top) {
      if (chunk.trim() !== '') throw invalid('text outside the root element', at);
      return;
    }
    if (top.text.length < MAX_TEXT) top.text = (top.text + chunk).slice(0, MAX_TEXT);
  };
  while (pos < text.length) {
    const lt = text.indexOf('<', pos);
    if (lt < 0) {
      addText(decode(text.slice(pos), pos), pos);
      break;
    }
    if (lt > pos) addText(decode(text.slice(pos, lt), pos), pos);
    if (text.startsWith('<?', lt)) {
      const end = text.indexOf('?>', lt + 2);
      if (end < 0) throw invalid('an unclosed processing instruction', lt);
      pos = end + 2;
    } else if (text.startsWith('<!--', lt)) {
      const end = text.indexOf('-->', lt + 4);
      if (end < 0) throw invalid('an unclosed comment', lt);
      pos = end + 3;
    } else if (text.startsWith('<![CDATA[', lt)) {
      const end = text.indexOf(']]>', lt + 9);
      if (end < 0 || stack.length === 0) throw invalid('a CDATA section outside an element or unclosed', lt);
      addText(text.slice(lt + 9, end), lt);
      pos = end + 3;
    } else if (text.startsWith('<!', lt)) {
      throw invalid('a document type declaration or other markup declaration', lt);
    } else if (text.startsWith('</', lt)) {
      NAME.lastIndex = lt + 2;
      const name = NAME.exec(text)?.[0];
      const close = name === undefined ? -1 : text.indexOf('>', lt + 2 + name.length);
      const top = stack.pop();
      if (!name || !top || top.name !== name || close < 0 || text.slice(lt + 2 + name.length, close).trim() !== '')
        throw invalid(`a closing tag that does not match${top ? ` <${top.name}>` : ''}`, lt);
      pos = close + 1;
    } else {
      NAME.lastIndex = lt + 1;
      const name = NAME.exec(text)?.[0];
      if (!name) throw invalid('a tag without a name', lt);
      if (!stack.length && root) throw invalid('a second root element', lt);
      const element: XmlElement = { name, attributes: {}, children: [], text: '' };
      let at = lt + 1 + name.length;
      for (;;) {
        ATTRIBUTE.lastIndex = at;
        const attribute = ATTRIBUTE.exec(text);
        if (!attribute) break;
        if (attribute[1]! in element.attributes) throw invalid(`attribute ${attribute[1]} twice`, at);
        element.attributes[attribute[1]!] = decode(attribute[2] ?? attribute[3] ?? '', at);
        at = ATTRIBUTE.lastIndex;
      }
      TAG_END.lastIndex = at;
      const end = TAG_END.exec(text);
      if (!end) throw invalid(`a malformed <${name}> tag`, lt);
      const parent = stack.at(-1);
      if (parent) parent.children.push(element);
      else root = element;
      if (end[1] !== '/') {
        if (stack.length >= MAX_DEPTH) throw invalid(`elements nested deeper than ${MAX_DEPTH}`, lt);
        stack.push(element);
      }
      pos = TAG_END.lastIndex;
    }
  }
  if (stack.length > 0) throw invalid(`<${stack.at(-1)!.name}> is never closed`, text.length);
  if (!root) throw invalid('no root element', 0);
  return root;
}
