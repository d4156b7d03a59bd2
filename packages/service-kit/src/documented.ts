// For a request schema whose zod form the document generator cannot render (a preprocess or a
// transform over `unknown`, kept for its field-by-field messages): the JSON Schema the document
// shows instead, which must accept exactly what the zod schema accepts.
import { z } from 'zod';

export type JsonSchema = Record<string, unknown>;

/** The JSON Schema of what `schema` takes as input, to build a documented form from its parts. */
export function inputJsonSchema(schema: z.ZodType): JsonSchema {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  return rest;
}

/** `.meta(documentedAs(doc))`: the document renders `doc` in place of what it would generate. */
export function documentedAs(doc: JsonSchema) {
  return {
    override: ({ jsonSchema }: { jsonSchema: JsonSchema }) => {
      for (const key of Object.keys(jsonSchema)) delete jsonSchema[key];
      Object.assign(jsonSchema, structuredClone(doc));
    },
  };
}
