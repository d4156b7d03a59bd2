// The item bank (assessment service, /api/bank/items…): endpoints and types are generated from the
// gateway's OpenAPI document (api/generated); this file adds their cache tags. Adding items to an
// assessment refreshes that assessment's questions (the tags of features/assessments/assessmentsApi.ts).
import { generatedApi } from '../../api/generated/endpoints';
import type { BankItem, BankPage, SearchBankApiArg } from '../../api/generated/endpoints';

export type { BankItem, BankPage };
export type BankSearchArgs = SearchBankApiArg;
export type Visibility = BankItem['visibility'];
export type QuestionType = BankItem['questionType'];

export const VISIBILITY_LABELS: Record<Visibility, string> = {
  private: 'Only me',
  school: 'My school',
  district: 'My district',
};

export const TYPE_LABELS: Record<QuestionType, string> = {
  multiple_choice: 'Multiple choice',
  short_answer: 'Short answer',
  true_false: 'True / false',
};

export const bankApi = generatedApi.enhanceEndpoints({
  addTagTypes: ['Bank', 'Question', 'Assessment'],
  endpoints: {
    searchBank: { providesTags: ['Bank'] },
    getBankItem: { providesTags: ['Bank'] },
    saveBankItem: { invalidatesTags: ['Bank'] },
    updateBankItem: { invalidatesTags: ['Bank'] },
    deleteBankItem: { invalidatesTags: ['Bank'] },
    addFromBank: {
      invalidatesTags: (_r, _e, { id }) => [
        { type: 'Question', id },
        { type: 'Assessment', id },
      ],
    },
  },
});

export const {
  useSearchBankQuery,
  useSaveBankItemMutation,
  useUpdateBankItemMutation,
  useDeleteBankItemMutation,
  useAddFromBankMutation,
} = bankApi;
