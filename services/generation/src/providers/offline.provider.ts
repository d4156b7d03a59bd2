// The deterministic provider: everything from the teacher's own text, no network.
import { generateOfflineQuestions } from '../domain/offline-generator.ts';
import { buildPracticeMaterial, buildResultPractice } from '../domain/practice.ts';
import { composeRecommendation } from '../domain/recommendations.ts';
import type { Provider } from './provider.ts';

export function offlineProvider(): Provider {
  return {
    name: 'offline',
    generateQuestions: async (request) => generateOfflineQuestions(request),
    writePractice: async (lesson, type) => buildPracticeMaterial(lesson, type),
    writeResultPractice: async (lesson, outcomes, type, retry) => buildResultPractice(lesson, outcomes, type, retry),
    writeRecommendation: async (lesson, summary, type) => composeRecommendation(lesson, summary, type),
  };
}
