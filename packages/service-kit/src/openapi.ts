import { createDocument, type ZodOpenApiPathsObject } from 'zod-openapi';

export type OpenApiDocument = ReturnType<typeof createDocument>;

export function buildOpenApiDocument(title: string, paths: ZodOpenApiPathsObject): OpenApiDocument {
  return createDocument({ openapi: '3.1.0', info: { title, version: '1.0.0' }, paths });
}

/** Merges service documents into one (the gateway's /api/openapi.json). */
export function mergeOpenApiDocuments(title: string, docs: OpenApiDocument[]): OpenApiDocument {
  const merged: OpenApiDocument = {
    openapi: '3.1.0',
    info: { title, version: '1.0.0' },
    paths: {},
    components: { schemas: {} },
  };
  for (const doc of docs) {
    Object.assign(merged.paths!, doc.paths ?? {});
    Object.assign(merged.components!.schemas!, doc.components?.schemas ?? {});
  }
  return merged;
}
