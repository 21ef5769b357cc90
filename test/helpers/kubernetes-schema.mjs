// Validates Kubernetes objects against the API schemas that kubernetes-models ships (offline).
// kubernetes-models is ESM-only, which Jest's CommonJS runtime cannot load: the manifest test
// runs this file with node instead. stdin: a JSON array of objects; stdout: one verdict each,
// { kind, name, error } with error null when the object is valid.

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
