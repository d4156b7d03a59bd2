// The item bank (assessment service, /api/bank/items…): endpoints and types are generated from the
// gateway's OpenAPI document (api/generated); this file adds their cache tags. Adding items to an
// assessment refreshes that assessment's questions (the tags of features/assessments/assessmentsApi.ts).
import { generatedApi } from '../../api/generated/endpoints';
import type { BankItem, BankPage, SearchBankApiArg } from '../../api/generated/endpoints';

export type { BankItem, BankPage };
export type BankSearchArgs = SearchBankApiArg;
export type Visibility = BankItem['visibility'];
export type QuestionType = BankItem['questionType'];

/** Who can find an item, in order; each one's name is the bank namespace's `visibility.<value>`. */
export const VISIBILITIES: readonly Visibility[] = ['private', 'school', 'district'];

/** The question types, in order; each one's name is the bank namespace's `type.<value>`. */
export const QUESTION_TYPES: readonly QuestionType[] = ['multiple_choice', 'short_answer', 'true_false'];

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
