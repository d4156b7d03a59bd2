import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { csvCell, csvText } from '../src/index.ts';

describe('CSV writer', () => {
  it('when a text starts with = + - @, a tab or a carriage return, then it gets a leading apostrophe', () => {
    expect(csvCell('=HYPERLINK("http://evil.example","click")')).toBe(
      `"'=HYPERLINK(""http://evil.example"",""click"")"`,
    );
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell('-2+3')).toBe("'-2+3");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\t=1')).toBe("'\t=1");
    expect(csvCell('\r=1')).toBe(`"'\r=1"`);
  });

  it('when a text starts with a full-width = + - @, then it is escaped too (spreadsheets normalise them)', () => {
    for (const c of ['\uFF1D', '\uFF0B', '\uFF0D', '\uFF20']) expect(csvCell(`${c}1+1`)).toBe(`'${c}1+1`);
  });

  it('when a formula character is inside the text, then the text is left as it is', () => {
    expect(csvCell('Ms Ng = 7B')).toBe('Ms Ng = 7B');
    expect(csvCell('ada@school.example')).toBe('ada@school.example');
  });

  it('when a value is a number, then it is written as a number, a negative one too', () => {
    expect(csvText([[-5, 0, 82.5, -0.25]])).toBe('-5,0,82.5,-0.25\r\n');
  });

  it('when a cell holds commas, quotes or line breaks, then it is quoted and its quotes doubled', () => {
    expect(csvCell('Cole, Cy')).toBe('"Cole, Cy"');
    expect(csvCell('the "best"')).toBe('"the ""best"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell('two\r\nlines')).toBe('"two\r\nlines"');
    expect(csvCell('carriage\rreturn')).toBe('"carriage\rreturn"');
  });

  it('when a value is empty, a boolean, a date or JSON, then it is an empty cell, true/false, ISO text or JSON text', () => {
    expect(csvText([[null, undefined, '', true, false]])).toBe(',,,true,false\r\n');
    expect(csvCell(new Date('2026-11-23T10:00:00.000Z'))).toBe('2026-11-23T10:00:00.000Z');
    expect(csvCell({ a: 1, b: ['x'] })).toBe('"{""a"":1,""b"":[""x""]}"');
    expect(csvCell([-1, 2])).toBe('"[-1,2]"');
  });

  it('when rows are written, then each line ends with CRLF and a reader gets the same cells back', () => {
    const rows = [
      ['name', 'note', 'score'],
      ['Zoë, "Z"', 'line one\nline two', '-3'],
      ['=cmd', '', '7'],
    ];
    const text = csvText(rows);
    expect(text).toBe('name,note,score\r\n"Zoë, ""Z""","line one\nline two",\'-3\r\n\'=cmd,,7\r\n');
    expect(parse(text)).toEqual([rows[0], rows[1]!.slice(0, 2).concat("'-3"), ["'=cmd", '', '7']]);
  });

  it('when the BOM is asked for, then the file starts with the UTF-8 byte-order mark, and only then', () => {
    expect(csvText([['Zoë']], { bom: true })).toBe('\uFEFFZoë\r\n');
    expect(Buffer.from(csvText([['Zoë']], { bom: true })).subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    expect(csvText([['Zoë']])).toBe('Zoë\r\n');
  });
});
