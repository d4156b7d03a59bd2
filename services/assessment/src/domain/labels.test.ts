import { describe, expect, it } from 'vitest';
import { isTheLesson, labelsFor, topicFromLesson } from './labels.ts';

const lesson = `# Cells\n\n${'All living things are made of cells. '.repeat(6)}\n\nThe nucleus holds the genetic material.`;

describe('labels of an assessment', () => {
  it('when a label is short, then it is kept as given even if it is the whole content', () => {
    expect(labelsFor({ title: 'T', contentToAssess: 'Cells', topic: 'Cells', standard: 'Cells' })).toEqual({
      topic: 'Cells',
      standard: 'Cells',
    });
  });

  it('when topic and standard are the lesson (spaces aside), then the topic is its heading and the standard empty', () => {
    const spaced = lesson.replace(/\n\n/g, '\n  \n');
    expect(isTheLesson(spaced, lesson)).toBe(true);
    expect(labelsFor({ title: 'Quiz', contentToAssess: lesson, topic: spaced, standard: lesson })).toEqual({
      topic: 'Cells',
      standard: '',
    });
  });

  it('when a long label is another text than the lesson, then it is not taken for the lesson', () => {
    expect(isTheLesson('x'.repeat(200), lesson)).toBe(false);
  });

  it('when the lesson opens on a sentence, then the title is the topic', () => {
    expect(topicFromLesson('Living things', 'Cells are small.\nThey divide.')).toBe('Living things');
    expect(topicFromLesson('Living things', 'Cells and the things inside them')).toBe('Living things');
  });

  it('when the title is longer than a label, then it is cut at a word with an ellipsis', () => {
    const topic = topicFromLesson(`${'photosynthesis '.repeat(12)}end`, 'One sentence only.');
    expect(topic.length).toBeLessThanOrEqual(120);
    expect(topic).toMatch(/^photosynthesis( photosynthesis)*…$/);
  });
});
