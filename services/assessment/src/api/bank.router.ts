// The item bank (/api/bank/items…, and /api/assessments/{id}/questions/from-bank): teachers and
// admins search, save, change and delete items; an item another may not see answers 404, one
// they see but may not change 403 (domain/bank.use-case.ts).
import { ApiRouter } from '@checkpoint/service-kit';
import { z } from 'zod';
import { BankItemNotFoundError, type BankUseCases } from '../domain/bank.use-case.ts';
import { idParams, questionSchema } from './assessments.schemas.ts';
import {
  bankItemSchema,
  bankPageSchema,
  bankSearchQuery,
  fromBankBody,
  saveBankItemBody,
  updateBankItemBody,
} from './bank.schemas.ts';
import { uuidOr404 } from './ids.ts';
import { QuestionNotFoundError } from '../domain/errors.ts';

const TEACHERS = ['teacher', 'admin'] as const;
const itemId = (id: string) => uuidOr404(id, () => new BankItemNotFoundError());

export function bankRouter(uc: BankUseCases): ApiRouter {
  return new ApiRouter()
    .add(
      {
        method: 'get',
        path: '/api/bank/items',
        summary:
          'Search the bank items you may see (yours, your school’s, your district’s) by words, type, standard, subject, grade and visibility; newest first, a page at a time',
        access: TEACHERS,
        query: bankSearchQuery,
        response: bankPageSchema,
      },
      ({ caller, query }) => uc.search(caller, query),
    )
    .add(
      {
        method: 'post',
        path: '/api/bank/items',
        summary:
          'Save to the bank: {questionId, visibility} copies one of your questions (with its assessment’s labels), or send a question with its visibility. 400 naming visibility when the account may not share so (an individual account; no school)',
        access: TEACHERS,
        body: saveBankItemBody,
        status: 201,
        response: bankItemSchema,
        errors: [404],
      },
      ({ caller, body }) =>
        body.kind === 'question'
          ? uc.saveQuestion(
              caller,
              uuidOr404(body.questionId, () => new QuestionNotFoundError()),
              body.visibility,
              body.labels,
            )
          : uc.saveNew(caller, body.question, body.visibility, body.labels),
    )
    .add(
      {
        method: 'get',
        path: '/api/bank/items/:id',
        summary: 'One bank item you may see, with its answer key',
        access: TEACHERS,
        params: idParams,
        response: bankItemSchema,
        errors: [404],
      },
      ({ caller, params }) => uc.get(caller, itemId(params.id)),
    )
    .add(
      {
        method: 'put',
        path: '/api/bank/items/:id',
        summary:
          'Change a bank item (its author; an admin of the district for a shared one: 403 to others who see it). Assessments it was added to keep their copies',
        access: TEACHERS,
        params: idParams,
        body: updateBankItemBody,
        response: bankItemSchema,
        errors: [403, 404],
      },
      ({ caller, params, body }) => {
        const { visibility, labels, ...edit } = body;
        return uc.update(caller, itemId(params.id), { ...edit, visibility, labels });
      },
    )
    .add(
      {
        method: 'delete',
        path: '/api/bank/items/:id',
        summary: 'Delete a bank item (as for a change); assessments it was added to keep their copies',
        access: TEACHERS,
        params: idParams,
        errors: [403, 404],
      },
      ({ caller, params }) => uc.delete(caller, itemId(params.id)),
    )
    .add(
      {
        method: 'post',
        path: '/api/assessments/:id/questions/from-bank',
        summary:
          'Copy bank items, in order, to the end of the assessment as new questions (at most 20 questions; 409 once students submitted or on a common assessment’s copy); 400 naming itemIds[i] for an item you cannot see',
        access: TEACHERS,
        params: idParams,
        body: fromBankBody,
        status: 201,
        response: z.array(questionSchema),
        errors: [404, 409],
      },
      ({ caller, params, body }) => uc.addToAssessment(caller, uuidOr404(params.id), body.itemIds),
    );
}
