// Turns Kubernetes API definitions into the JSON schemas kubeconform reads, offline:
// - the core API from a pinned Kubernetes release's OpenAPI v2 document (api/openapi-spec/swagger.json
//   in the k8s.io/kubernetes Go module), one standalone file per group/version/kind;
// - custom resources from their CustomResourceDefinitions (openAPIV3Schema of each served version).
// Files are laid out as `<group>/<version>/<kind>.json` (core kinds under `v1/v1/`), which is
// kubeconform's `{{ .Group }}/{{ .ResourceAPIVersion }}/{{ .ResourceKind }}.json` template.
//
// The schemas are strict, as `kubectl --validate=strict` and the API server's field validation are:
// an object with declared properties refuses undeclared ones (unless the API marks it
// x-kubernetes-preserve-unknown-fields), so a misspelt or misplaced field fails the check.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** The path template to give kubeconform's -schema-location, below the schemas' directory. */
export const SCHEMA_LOCATION_TEMPLATE = '{{ .Group }}/{{ .ResourceAPIVersion }}/{{ .ResourceKind }}.json';

/** Where the schema of group/version/kind goes (kubeconform's `.Group` is the version for core kinds). */
export function schemaPath(dir, group, version, kind) {
  return path.join(dir, group || version, version, `${kind.toLowerCase()}.json`);
}

const SUBSCHEMA_MAPS = ['properties', 'patternProperties', 'definitions'];
const SUBSCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf'];
const SUBSCHEMAS = ['not', 'additionalItems'];

/**
 * A strict copy of a schema node. Walks only schema positions (a property *named* `format` is not
 * the keyword `format`), drops descriptions (size), and maps the API's own conventions to JSON
 * Schema: int-or-string, nullable, preserve-unknown-fields.
 */
export function strictSchema(node) {
  if (Array.isArray(node)) return node.map(strictSchema);
  if (!node || typeof node !== 'object') return node;
  if (node.format === 'int-or-string') return { oneOf: [{ type: 'string' }, { type: 'integer' }] };

  const out = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'description' || key.startsWith('x-intellij')) continue;
    if (SUBSCHEMA_MAPS.includes(key) && value && typeof value === 'object') {
      out[key] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, strictSchema(sub)]));
    } else if (SUBSCHEMA_LISTS.includes(key) && Array.isArray(value)) {
      out[key] = value.map(strictSchema);
    } else if (key === 'items' || key === 'additionalProperties' || SUBSCHEMAS.includes(key)) {
      out[key] = typeof value === 'object' ? strictSchema(value) : value;
    } else {
      out[key] = value;
    }
  }
  if (out['x-kubernetes-int-or-string'] === true && !out.anyOf && !out.oneOf) {
    delete out.type;
    out.anyOf = [{ type: 'integer' }, { type: 'string' }];
  }
  if (out.nullable === true && typeof out.type === 'string') out.type = [out.type, 'null'];
  delete out.nullable;
  const open = out['x-kubernetes-preserve-unknown-fields'] === true;
  if (out.properties && !('additionalProperties' in out) && !open) out.additionalProperties = false;
  return out;
}

function refsOf(node, into) {
  if (Array.isArray(node)) for (const item of node) refsOf(item, into);
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') into.add(value.replace('#/definitions/', ''));
      else refsOf(value, into);
    }
  }
  return into;
}

/** The definitions `root` needs, transitively, so that each kind's file stands alone. */
function closure(definitions, root) {
  const seen = new Set();
  const queue = [...refsOf(root, new Set())];
  while (queue.length > 0) {
    const name = queue.pop();
    if (seen.has(name)) continue;
    if (!definitions[name]) throw new Error(`OpenAPI definition ${name} is referenced but not defined`);
    seen.add(name);
    queue.push(...refsOf(definitions[name], new Set()));
  }
  return [...seen].sort();
}

function writeJson(file, value) {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(value));
}

/**
 * Writes one schema per group/version/kind of a Kubernetes OpenAPI v2 document into `dir`;
 * returns how many. Quantity is a string in the document but the API also takes a number
 * (`cpu: 1`), as the API server's decoder does.
 */
export function writeKubernetesSchemas(swagger, dir) {
  const definitions = Object.fromEntries(
    Object.entries(swagger.definitions ?? {}).map(([name, def]) => [
      name,
      name.endsWith('.api.resource.Quantity') ? { oneOf: [{ type: 'string' }, { type: 'number' }] } : strictSchema(def),
    ]),
  );
  let written = 0;
  for (const [name, def] of Object.entries(swagger.definitions ?? {})) {
    for (const gvk of def['x-kubernetes-group-version-kind'] ?? []) {
      const root = definitions[name];
      const needed = closure(definitions, root);
      const schema = {
        $schema: 'http://json-schema.org/draft-04/schema#',
        ...root,
        definitions: Object.fromEntries(needed.map((ref) => [ref, definitions[ref]])),
      };
      writeJson(schemaPath(dir, gvk.group, gvk.version, gvk.kind), schema);
      written++;
    }
  }
  if (written === 0) throw new Error('the OpenAPI document has no definitions with x-kubernetes-group-version-kind');
  return written;
}

/**
 * Writes the schema of every served version of the CustomResourceDefinitions among `documents`
 * (parsed YAML documents); returns the `group/version/Kind` names written.
 */
export function writeCrdSchemas(documents, dir) {
  const written = [];
  for (const doc of documents) {
    if (doc?.kind !== 'CustomResourceDefinition') continue;
    const { group, names, versions } = doc.spec ?? {};
    if (!group || !names?.kind || !Array.isArray(versions)) {
      throw new Error(`CustomResourceDefinition ${doc.metadata?.name ?? '?'} lacks spec.group, names.kind or versions`);
    }
    for (const version of versions) {
      const schema = version.schema?.openAPIV3Schema;
      if (!version.served || !schema) continue;
      writeJson(schemaPath(dir, group, version.name, names.kind), {
        $schema: 'http://json-schema.org/draft-04/schema#',
        ...strictSchema(schema),
      });
      written.push(`${group}/${version.name}/${names.kind}`);
    }
  }
  return written;
}
