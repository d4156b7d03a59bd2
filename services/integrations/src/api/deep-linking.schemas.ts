// LTI Deep Linking: the teacher's page (GET the pending request and their assessments, POST the
// one they pick). Validation and OpenAPI.
import { z } from 'zod';

export const deepLinkParams = z.object({ id: z.uuid().describe('The pending deep-linking request.') });

export const deepLinkRequestSchema = z
  .object({
    id: z.uuid(),
    classId: z.uuid().nullable().describe('The Checkpoint class linked to the LMS course (null: none).'),
    platform: z.string().describe("The platform's issuer."),
    assessments: z
      .array(
        z.object({
          id: z.uuid(),
          title: z.string(),
          totalPoints: z.number().describe('The line item’s scoreMaximum; 0 while it has no questions.'),
          inLinkedClass: z.boolean().describe('One of the linked class’s assessments (listed first).'),
        }),
      )
      .describe("The teacher's own assessments (the linked class's first)."),
  })
  .meta({ id: 'LtiDeepLinkRequest' });

export const deepLinkChoiceBody = z
  .object({ assessmentId: z.uuid().describe('One of the teacher’s own assessments.') })
  .meta({ id: 'LtiDeepLinkChoice' });

export const deepLinkAnswerSchema = z
  .object({
    formUrl: z
      .string()
      .describe('Open this (a page of this tool) to post the signed LtiDeepLinkingResponse to the platform, once.'),
  })
  .meta({ id: 'LtiDeepLinkAnswer' });
