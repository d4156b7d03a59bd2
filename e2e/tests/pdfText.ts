// The text of a PDF as the reports write it (pdfkit, embedded Type0 fonts with Identity-H encoding
// and a ToUnicode map each, Flate-compressed streams): one string per text object (BT … ET), in
// drawing order. Enough to read a report's cells; not a general PDF reader.
import { inflateSync } from 'node:zlib';

interface PdfObject {
  dict: string;
  stream?: Buffer;
}

function objects(pdf: Buffer): Map<string, PdfObject> {
  const text = pdf.toString('latin1');
  const found = new Map<string, PdfObject>();
  const head = /(\d+) 0 obj\s*/g;
  let m: RegExpExecArray | null;
  while ((m = head.exec(text))) {
    const end = text.indexOf('endobj', head.lastIndex);
    const body = text.slice(head.lastIndex, end);
    const streamAt = body.search(/stream\r?\n/);
    if (streamAt < 0) {
      found.set(m[1]!, { dict: body });
      continue;
    }
    const dict = body.slice(0, streamAt);
    const start = head.lastIndex + streamAt + body.slice(streamAt).indexOf('\n') + 1;
    const stop = text.indexOf('endstream', start);
    const raw = pdf.subarray(start, stop);
    found.set(m[1]!, { dict, stream: dict.includes('/FlateDecode') ? inflateSync(raw) : raw });
  }
  return found;
}

/** A ToUnicode CMap as pdfkit writes it: bfrange lines with arrays, and bfchar lines; a target may be a ligature. */
function toUnicode(cmap: string): Map<number, string> {
  const map = new Map<number, string>();
  const hex = (h: string) => Number.parseInt(h, 16);
  // A ligature maps one code to several characters: <0066 006c> is "fl".
  const chars = (h: string) => String.fromCodePoint(...(h.replace(/\s+/g, '').match(/.{4}/g) ?? []).map(hex));
  for (const block of cmap.matchAll(/beginbfrange([\s\S]*?)endbfrange/g)) {
    for (const line of block[1]!.matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>\s*(\[[^\]]*\]|<[0-9a-fA-F]+>)/g)) {
      const from = hex(line[1]!);
      const target = line[3]!;
      if (target.startsWith('[')) {
        [...target.matchAll(/<([0-9a-fA-F\s]+)>/g)].forEach((t, i) => map.set(from + i, chars(t[1]!)));
      } else {
        const base = hex(target.slice(1, -1));
        for (let code = from; code <= hex(line[2]!); code += 1) map.set(code, String.fromCodePoint(base + code - from));
      }
    }
  }
  for (const block of cmap.matchAll(/beginbfchar([\s\S]*?)endbfchar/g)) {
    for (const line of block[1]!.matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F\s]+)>/g))
      map.set(hex(line[1]!), chars(line[2]!));
  }
  return map;
}

/** Each text object's text, page after page. */
export function pdfTextRuns(pdf: Buffer): string[] {
  const all = objects(pdf);
  const ref = (dict: string, key: string) => new RegExp(`/${key}\\s+(\\d+) 0 R`).exec(dict)?.[1];
  // Font resource name (/F1 …) → its ToUnicode map.
  const fonts = new Map<string, Map<number, string>>();
  for (const { dict } of all.values()) {
    const fontDict = /\/Font\s*<<([^>]*)>>/.exec(dict)?.[1];
    if (!fontDict) continue;
    for (const [, name, id] of fontDict.matchAll(/\/(\w+)\s+(\d+) 0 R/g)) {
      const cmapId = ref(all.get(id!)?.dict ?? '', 'ToUnicode');
      const cmap = cmapId ? all.get(cmapId)?.stream : undefined;
      if (cmap) fonts.set(name!, toUnicode(cmap.toString('latin1')));
    }
  }
  const pages = [...all.values()].filter((o) => /\/Type\s*\/Page\b/.test(o.dict));
  const runs: string[] = [];
  for (const page of pages) {
    const content = all.get(ref(page.dict, 'Contents') ?? '')?.stream?.toString('latin1') ?? '';
    for (const [, block] of content.matchAll(/BT([\s\S]*?)ET/g)) {
      let font = new Map<number, string>();
      let text = '';
      for (const op of block!.matchAll(/\/(\w+)\s+[\d.]+\s+Tf|\[([^\]]*)\]\s*TJ|<([0-9a-fA-F]*)>\s*Tj/g)) {
        if (op[1]) font = fonts.get(op[1]) ?? new Map();
        const hexes = op[2] !== undefined ? [...op[2].matchAll(/<([0-9a-fA-F]*)>/g)].map((h) => h[1]!) : [op[3] ?? ''];
        if (op[1]) continue;
        for (const h of hexes)
          for (const code of h.match(/.{4}/g) ?? []) text += font.get(Number.parseInt(code, 16)) ?? '';
      }
      runs.push(text);
    }
  }
  return runs;
}
