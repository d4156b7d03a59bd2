import { describe, expect, it } from 'vitest';
import { errorsCsv } from './roster-import.use-case.ts';

describe('roster import errors as CSV', () => {
  it('when an error row quotes a value a spreadsheet would run, full-width signs too, then the cell is escaped', () => {
    const csv = errorsCsv([
      { file: 'users.csv', line: 3, sourcedId: '=cmd', field: 'email', message: 'not an email: "x, y"' },
      { file: 'users.csv', line: 4, sourcedId: '\uFF20SUM(A1)', field: 'givenName', message: 'required' },
    ]);
    expect(csv).toBe(
      'file,line,sourcedId,field,message\r\n' +
        `users.csv,3,'=cmd,email,"not an email: ""x, y"""\r\n` +
        "users.csv,4,'\uFF20SUM(A1),givenName,required\r\n",
    );
  });
});
