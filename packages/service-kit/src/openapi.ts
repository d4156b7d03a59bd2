import { createDocument, type ZodOpenApiPathsObject } from 'zod-openapi';

export type OpenApiDocument = ReturnType<typeof createDocument>;

export function buildOpenApiDocument(title: string, paths: ZodOpenApiPathsObject): OpenApiDocument {
  return createDocument({ openapi: '3.1.0', info: { title, version: '1.0.0' }, paths });
}

/** Rules of every call that JSON Schema cannot state per field. */
const RULES =
  'No text anywhere in a request (values or keys) may hold the NUL character (U+0000): such a request answers 400. ' +
  'A request line and headers above 16 KB answer 431.';

/** Merges service documents into one (the gateway's /api/openapi.json). */
export function mergeOpenApiDocuments(title: string, docs: OpenApiDocument[]): OpenApiDocument {
  const merged: OpenApiDocument = {
    openapi: '3.1.0',
    info: { title, version: '1.0.0', description: RULES },
    paths: {},
    components: { schemas: {} },
  };
  for (const doc of docs) {
    Object.assign(merged.paths!, doc.paths ?? {});
    Object.assign(merged.components!.schemas!, doc.components?.schemas ?? {});
  }
  return merged;
}
