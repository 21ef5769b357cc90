// Validates Kubernetes objects against the API schemas that kubernetes-models ships (offline).
// kubernetes-models is ESM-only, which Jest's CommonJS runtime cannot load: the manifest test
// runs this file with node instead. stdin: a JSON array of objects; stdout: one verdict each,
// { kind, name, error } with error null when the object is valid.
// Custom resources (issue 46: CloudNativePG's Cluster) are validated against the CRDs vendored
// under k8s/crds/ (their openAPIV3Schema, with Ajv), never against anything fetched.

import fs from "node:fs";
import path from "node:path";
import Ajv from "ajv";
import YAML from "yaml";

const CRD_DIR = path.join(import.meta.dirname, "..", "..", "k8s", "crds");

/**
 * A CRD's schema as the API server applies it with strict field validation (kubectl's default):
 * a field the schema does not name is an error, unless the schema keeps unknown fields.
 */
function strict(schema) {
  if (schema === null || typeof schema !== "object") return schema;
  if (Array.isArray(schema)) return schema.map(strict);
  const out = Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, strict(value)]));
  if (out.properties && out.additionalProperties === undefined && !out["x-kubernetes-preserve-unknown-fields"]) {
    out.additionalProperties = false;
  }
  return out;
}

/** "group/version Kind" → validate function, from every CRD under k8s/crds/. */
function customSchemas() {
  const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
  const schemas = new Map();
  if (!fs.existsSync(CRD_DIR)) return schemas;
  for (const entry of fs.readdirSync(CRD_DIR, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !/\.ya?ml$/.test(entry.name)) continue;
    for (const doc of YAML.parseAllDocuments(fs.readFileSync(path.join(entry.parentPath, entry.name), "utf8"))) {
      const crd = doc.toJS();
      if (crd?.kind !== "CustomResourceDefinition") continue;
      for (const version of crd.spec.versions) {
        const schema = strict(version.schema.openAPIV3Schema);
        // metadata is the API server's ObjectMeta, checked by kubernetes-models elsewhere; not described by the CRD.
        if (schema.properties) schema.properties.metadata = { type: "object" };
        schemas.set(`${crd.spec.group}/${version.name} ${crd.spec.names.kind}`, ajv.compile(schema));
      }
    }
  }
  return schemas;
}

const custom = customSchemas();

const input = await new Promise((resolve, reject) => {
  let text = "";
  process.stdin.setEncoding("utf8");
  process.stdin.on("data", chunk => (text += chunk));
  process.stdin.on("end", () => resolve(text));
  process.stdin.on("error", reject);
});

/** "apps/v1" → "apps/v1", "v1" → "v1" (the core group): kubernetes-models' folder names. */
async function modelOf(apiVersion, kind) {
  try {
    const module = await import(`kubernetes-models/${apiVersion}/${kind}`);
    return module[kind] ?? null;
  } catch {
    return null;
  }
}

const verdicts = [];
for (const object of JSON.parse(input)) {
  const name = object?.metadata?.name ?? "(no name)";
  const validate = custom.get(`${object.apiVersion} ${object.kind}`);
  if (validate) {
    const valid = validate(object);
    const error = valid
      ? null
      : validate.errors
          .map(e => `${e.instancePath || "/"} ${e.message}${e.params?.additionalProperty ? `: ${e.params.additionalProperty}` : ""}`)
          .join("; ");
    verdicts.push({ kind: object.kind, name, error });
    continue;
  }
  const Model = await modelOf(object.apiVersion, object.kind);
  if (!Model) {
    verdicts.push({ kind: object.kind, name, error: `no schema for ${object.apiVersion} ${object.kind}` });
    continue;
  }
  try {
    new Model(object).validate();
    verdicts.push({ kind: object.kind, name, error: null });
  } catch (err) {
    verdicts.push({ kind: object.kind, name, error: err instanceof Error ? err.message : String(err) });
  }
}
process.stdout.write(JSON.stringify(verdicts));
