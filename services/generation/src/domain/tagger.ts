// A second part-of-speech tagger (wink-nlp), beside compromise, which the lesson reader uses: where
// one of them misreads a word ("keep" as a noun in "valves keep blood flowing"), the other is asked.
import winkNLP from 'wink-nlp';
import model from 'wink-eng-lite-web-model';
import { memo } from './memo.ts';

const wink = winkNLP(model);

/** Universal part-of-speech tags of a sentence's words (punctuation left out). */
export const posTags = memo((text: string): { word: string; pos: string }[] => {
  const doc = wink.readDoc(text);
  const values = doc.tokens().out(wink.its.value) as string[];
  const pos = doc.tokens().out(wink.its.pos) as string[];
  return values.map((v, i) => ({ word: v.toLowerCase(), pos: pos[i]! })).filter((t) => t.pos !== 'PUNCT');
});
