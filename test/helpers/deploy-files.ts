import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import type { IContainer } from "kubernetes-models/v1/Container";
import type { IPodSpec } from "kubernetes-models/v1/PodSpec";
import YAML from "yaml";
import { ConfigError, loadConfig } from "../../lib/config";
import { ROOT } from "./processes";

/** Any rendered Kubernetes object; narrowed by kind where a test reads further. */
export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  [field: string]: unknown;
}

export interface PodOwner {
  object: KubeObject;
  labels: Record<string, string>;
  annotations: Record<string, string>;
  spec: IPodSpec;
}

export const KUBECTL = process.env.KUBECTL ?? "kubectl";
/** The label every relay pod carries (NATS, PostgreSQL and Redis pods do not). */
export const APP_LABEL = { "app.kubernetes.io/name": "relay-parcels" };
const SECRET_TEMPLATE = path.join(ROOT, "k8s", "base", "secret.template.yaml");

export function kubectlInstalled(): boolean {
  return spawnSync(KUBECTL, ["version", "--client"], { stdio: "ignore" }).status === 0;
}

/** Every YAML file below a folder. */
export function yamlFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter(entry => entry.isFile() && /\.ya?ml$/.test(entry.name))
    .map(entry => path.join(entry.parentPath, entry.name))
    .sort();
}

/** The documents of a YAML file; merge keys (`<<`) resolved, as Compose does. Throws on any error. */
export function readYamlDocuments(file: string): unknown[] {
  const documents = YAML.parseAllDocuments(fs.readFileSync(file, "utf8"), { merge: true });
  const list = Array.isArray(documents) ? documents : [documents];
  for (const doc of list) {
    if (doc.errors.length > 0) throw new Error(`${path.relative(ROOT, file)}: ${doc.errors.map(e => e.message).join("; ")}`);
  }
  return list.map(doc => doc.toJS()).filter(value => value !== null);
}

/** `kubectl kustomize <dir>`, parsed. */
export function renderKustomization(dir: string): KubeObject[] {
  const run = spawnSync(KUBECTL, ["kustomize", dir], { encoding: "utf8", maxBuffer: 16 * 1024 * 1024 });
  if (run.status !== 0) throw new Error(`kubectl kustomize ${dir} failed:\n${run.stderr}`);
  return YAML.parseAllDocuments(run.stdout)
    .map(doc => doc.toJS() as KubeObject | null)
    .filter((object): object is KubeObject => object !== null);
}

export interface SchemaVerdict {
  kind: string;
  name: string;
  error: string | null;
}

/**
 * Each object against the Kubernetes API schemas of kubernetes-models (see kubernetes-schema.mjs).
 * Secret data is checked with its line breaks removed: kustomize v5 folds long base64 values,
 * and the API server's base64 decoder skips line breaks.
 */
export function validateKubernetesObjects(objects: KubeObject[]): SchemaVerdict[] {
  const unfolded = objects.map(object => {
    if (object.kind !== "Secret" || typeof object.data !== "object" || object.data === null) return object;
    const data = Object.fromEntries(Object.entries(object.data).map(([key, value]) => [key, String(value).replace(/\s+/g, "")]));
    return { ...object, data };
  });
  const run = spawnSync(process.execPath, [path.join(ROOT, "test", "helpers", "kubernetes-schema.mjs")], {
    cwd: ROOT,
    input: JSON.stringify(unfolded),
    encoding: "utf8",
    maxBuffer: 16 * 1024 * 1024
  });
  if (run.status !== 0) throw new Error(`kubernetes-schema.mjs failed:\n${run.stderr}`);
  return JSON.parse(run.stdout) as SchemaVerdict[];
}

/** Deployments and StatefulSets with their pod templates. */
export function podOwners(objects: KubeObject[]): PodOwner[] {
  return objects
    .filter(object => object.kind === "Deployment" || object.kind === "StatefulSet")
    .map(object => {
      const template = (object.spec as { template: { metadata?: PodOwner["object"]["metadata"]; spec: IPodSpec } }).template;
      return {
        object,
        labels: template.metadata?.labels ?? {},
        annotations: template.metadata?.annotations ?? {},
        spec: template.spec
      };
    });
}

export function containersOf(owner: PodOwner): IContainer[] {
  return [...(owner.spec.initContainers ?? []), ...owner.spec.containers];
}

export function findObject(objects: KubeObject[], kind: string, name: string): KubeObject | undefined {
  return objects.find(object => object.kind === kind && object.metadata.name === name);
}

/** Kustomize appends a content hash to generated names: relay-config → relay-config-5f7d8c9b2k. */
export function findGenerated(objects: KubeObject[], kind: string, baseName: string): KubeObject | undefined {
  return objects.find(object => object.kind === kind && new RegExp(`^${baseName}(-[a-z0-9]{10})?$`).test(object.metadata.name));
}

export function matchesSelector(labels: Record<string, string>, selector: Record<string, string> | undefined): boolean {
  return Object.entries(selector ?? {}).every(([key, value]) => labels[key] === value);
}

/**
 * The names `process.env.NAME` or `process.env["NAME"]` reads in what a service process runs:
 * not the CLIs of bin/ (back-office, cluster runner), whose variables no pod needs.
 */
function namesReadFromProcessEnv(): Set<string> {
  const names = new Set<string>();
  const sources = ["lib", "services", "mixins", "middlewares"]
    .flatMap(dir => fs.readdirSync(path.join(ROOT, dir), { recursive: true, encoding: "utf8" }).map(file => path.join(ROOT, dir, file)))
    .concat(
      fs
        .readdirSync(ROOT)
        .filter(file => file.endsWith(".ts"))
        .map(file => path.join(ROOT, file))
    )
    .concat(path.join(ROOT, "bin", "start.ts"))
    .filter(file => file.endsWith(".ts"));
  for (const file of sources) {
    for (const match of fs.readFileSync(file, "utf8").matchAll(/process\.env(?:\.([A-Z0-9_]+)|\[\s*["']([A-Z0-9_]+)["']\s*\])/g)) {
      names.add(match[1] ?? match[2]);
    }
  }
  return names;
}

/**
 * Every variable the code reads: loadConfig run over a Proxy that records each property asked
 * for (with no variable, then with each environment given), plus direct `process.env` reads.
 */
export function variablesTheCodeReads(environments: Array<Record<string, string>>): Set<string> {
  const names = namesReadFromProcessEnv();
  for (const env of [{}, ...environments]) {
    const recording = new Proxy(env, {
      get(target, key, receiver) {
        if (typeof key === "string") names.add(key);
        return Reflect.get(target, key, receiver);
      },
      has(target, key) {
        if (typeof key === "string") names.add(key);
        return Reflect.has(target, key);
      }
    });
    try {
      loadConfig(recording);
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
    }
  }
  return names;
}

export const templateSecret = () => readYamlDocuments(SECRET_TEMPLATE)[0] as KubeObject & { stringData: Record<string, string> };

export function envValue(container: IContainer, name: string): string | undefined {
  return container.env?.find(variable => variable.name === name)?.value;
}

export function portNumber(container: IContainer, port: number | string | undefined): number | undefined {
  if (typeof port === "number") return port;
  return container.ports?.find(p => p.name === port)?.containerPort;
}

export const appOwners = (objects: KubeObject[]) => podOwners(objects).filter(owner => matchesSelector(owner.labels, APP_LABEL));
export const componentOf = (owner: PodOwner) => owner.labels["app.kubernetes.io/component"];
export const configData = (objects: KubeObject[]) =>
  (findGenerated(objects, "ConfigMap", "relay-config")?.data ?? {}) as Record<string, string>;

export function secretData(secret: KubeObject): Record<string, string> {
  const data = (secret.data ?? {}) as Record<string, string>;
  return Object.fromEntries(Object.entries(data).map(([key, value]) => [key, Buffer.from(value, "base64").toString("utf8")]));
}

/** What a relay container is given: its env, the ConfigMap and the Secret it reads (prod: the template's keys). */
export function environmentOf(objects: KubeObject[], container: IContainer): Record<string, string> {
  const env: Record<string, string> = {};
  for (const source of container.envFrom ?? []) {
    if (source.configMapRef) Object.assign(env, findObject(objects, "ConfigMap", source.configMapRef.name ?? "")?.data ?? {});
    if (source.secretRef) {
      const secret = findObject(objects, "Secret", source.secretRef.name ?? "");
      Object.assign(env, secret ? secretData(secret) : templateSecret().stringData);
    }
  }
  for (const variable of container.env ?? []) env[variable.name] = variable.value ?? "";
  return env;
}
