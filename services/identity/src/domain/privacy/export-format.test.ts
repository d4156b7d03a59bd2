import { describe, expect, it } from 'vitest';
import { exportCsv } from './export-format.ts';

describe('privacy export as CSV', () => {
  it('when a field holds a negative number, then it is written as the number, not as escaped text', () => {
    const csv = exportCsv({ services: { assessment: { tables: { results: [{ score_change: -5, score: 40 }] } } } });
    expect(csv).toBe(
      'service,table,row,field,value\r\n' +
        'assessment,results,1,score_change,-5\r\n' +
        'assessment,results,1,score,40\r\n',
    );
  });

  it('when a field holds text a spreadsheet would run, JSON, a boolean or nothing, then each is written safely', () => {
    const csv = exportCsv({
      services: {
        assessment: {
          tables: {
            answers: [{ answer: '=HYPERLINK("x")', wide: '\uFF1D1+1', options: { a: [1] }, correct: true, note: null }],
          },
        },
      },
    });
    expect(csv.split('\r\n').slice(1, -1)).toEqual([
      `assessment,answers,1,answer,"'=HYPERLINK(""x"")"`,
      "assessment,answers,1,wide,'\uFF1D1+1",
      'assessment,answers,1,options,"{""a"":[1]}"',
      'assessment,answers,1,correct,true',
      'assessment,answers,1,note,',
    ]);
  });
});
