import { describe, expect, it } from 'vitest';
import { optionsFor, parseOptions } from './parseOptions';

describe('parseOptions', () => {
  it('when options are an array, then they are kept trimmed and without blanks', () => {
    expect(parseOptions([' Paris ', 'London', '', 'Rome'])).toEqual(['Paris', 'London', 'Rome']);
  });

  it('when options are a JSON string, then the list inside is used', () => {
    expect(parseOptions('["Paris","London","Rome","Berlin"]')).toEqual(['Paris', 'London', 'Rome', 'Berlin']);
  });

  it('when options are a doubly encoded JSON string, then the list inside is still used', () => {
    expect(parseOptions(JSON.stringify(JSON.stringify(['a', 'b'])))).toEqual(['a', 'b']);
  });

  it('when options are comma delimited, then they are split on commas', () => {
    expect(parseOptions('Paris, London, Rome')).toEqual(['Paris', 'London', 'Rome']);
  });

  it('when options are newline delimited, then they are split on lines (commas inside stay)', () => {
    expect(parseOptions('1, 2 and 3\nfour\r\nfive')).toEqual(['1, 2 and 3', 'four', 'five']);
  });

  it('when options are pipe delimited, then they are split on pipes', () => {
    expect(parseOptions('A | B | C')).toEqual(['A', 'B', 'C']);
  });

  it('when options are missing, broken JSON or one word, then the result is sensible', () => {
    expect(parseOptions(null)).toEqual([]);
    expect(parseOptions(undefined)).toEqual([]);
    expect(parseOptions('')).toEqual([]);
    expect(parseOptions('[not json, x')).toEqual(['[not json', 'x']);
    expect(parseOptions('Only')).toEqual(['Only']);
    expect(parseOptions(42)).toEqual([]);
  });

  it('when a question is true/false or short answer, then its options are True/False or none', () => {
    expect(optionsFor('true_false', [])).toEqual(['True', 'False']);
    expect(optionsFor('short_answer', ['x'])).toEqual([]);
    expect(optionsFor('multiple_choice', 'a|b')).toEqual(['a', 'b']);
  });
});
