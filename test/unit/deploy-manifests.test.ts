import fs from "node:fs";
import path from "node:path";
import Ajv from "ajv";
import type { IContainer } from "kubernetes-models/v1/Container";
import { ALL_SERVICES, loadConfig } from "../../lib/config";
import { brokerOptions } from "../../moleculer.config";
import { checkServiceConfig } from "../../bin/service-config";
import {
  APP_LABEL,
  appOwners,
  componentOf,
  configData,
  containersOf,
  environmentOf,
  envValue,
  findGenerated,
  findObject,
  KubeObject,
  KUBECTL,
  kubectlInstalled,
  matchesSelector,
  podOwners,
  portNumber,
  readYamlDocuments,
  renderKustomization,
  SchemaVerdict,
  secretData,
  templateSecret,
  validateKubernetesObjects,
  variablesTheCodeReads,
  yamlFiles
} from "../helpers/deploy-files";
import { ROOT } from "../helpers/processes";

/**
 * The deployment files, checked offline (no cluster, no Docker engine): Kustomize renders each
 * overlay, every object passes the Kubernetes API schemas, the compose file passes the Compose
 * specification, and the rules an SRE relies on hold for every service.
 */

const K8S = path.join(ROOT, "k8s");
const OVERLAYS = ["dev", "prod"] as const;
const APP_UID = 1000;

/** A registry host (with a dot or a port, or localhost), then a pinned tag or digest that is not `latest`. */
const IMAGE_WITH_REGISTRY =
  /^(?:[a-z0-9-]+\.[a-z0-9.-]+|[a-z0-9.-]+:\d+|localhost)\/[a-z0-9._/-]+(?::(?!latest$)[\w][\w.-]*)?(?:@sha256:[a-f0-9]{64})?$/;
/** What bin/main.ts would stop on with this environment, or null. */
function startProblem(env: Record<string, string>): string | null {
  try {
    checkServiceConfig(loadConfig(env));
    return null;
  } catch (err) {
    return (err as Error).message;
  }
}

const pinned = (image: string) => /:(?!latest$)[\w][\w.-]*$|@sha256:[a-f0-9]{64}$/.test(image);

describe("services/", () => {
  test("every x.service.ts is a known service, so the manifest and compose checks below cover it", () => {
    const files = fs
      .readdirSync(path.join(ROOT, "services"))
      .filter(file => file.endsWith(".service.ts"))
      .map(file => file.replace(/\.service\.ts$/, ""));
    expect(files.sort()).toEqual([...ALL_SERVICES].sort());
  });
});

describe("YAML files", () => {
  test("every YAML file in k8s/ and docker-compose.yml parses", () => {
    const files = [...yamlFiles(K8S), path.join(ROOT, "docker-compose.yml")];
    expect(files.length).toBeGreaterThan(10);
    for (const file of files) expect(() => readYamlDocuments(file)).not.toThrow();
  });

  test("the Secret template holds no value and names only variables the code reads", () => {
    const secret = templateSecret();
    expect(secret.kind).toBe("Secret");
    expect(Object.values(secret.stringData).every(value => value === "")).toBe(true);
    const reads = variablesTheCodeReads([]);
    expect(Object.keys(secret.stringData).filter(name => !reads.has(name))).toEqual([]);
  });
});

const kubectlFound = kubectlInstalled();
if (!kubectlFound && process.env.CI === "true") {
  test(`kubectl is installed (CI renders the overlays with ${KUBECTL} kustomize)`, () => {
    throw new Error(`${KUBECTL} not found: .ci/run installs Debian's kubernetes-client`);
  });
} else if (!kubectlFound) {
  process.stderr.write(`\n[notice] skipping the Kustomize overlays: ${KUBECTL} not found (apt-get install kubernetes-client)\n`);
}

(kubectlFound ? describe.each(OVERLAYS) : describe.skip.each(OVERLAYS))("k8s/overlays/%s", overlay => {
  let objects: KubeObject[];
  let verdicts: SchemaVerdict[];

  beforeAll(() => {
    objects = renderKustomization(path.join(K8S, "overlays", overlay));
    verdicts = validateKubernetesObjects([...objects, templateSecret()]);
  });

  test("renders, and every object passes the Kubernetes API schemas", () => {
    expect(objects.length).toBeGreaterThan(20);
    expect(verdicts.filter(v => v.error !== null)).toEqual([]);
    expect(new Set(objects.map(o => o.metadata.namespace ?? (o.kind === "Namespace" ? o.metadata.name : null)))).toEqual(
      new Set(["relay-parcels"])
    );
  });

  test("one Deployment, HorizontalPodAutoscaler and PodDisruptionBudget per service, none for an unknown one", () => {
    const components = appOwners(objects).map(componentOf).sort();
    expect(components).toEqual([...ALL_SERVICES].sort());
    for (const owner of appOwners(objects)) {
      const name = owner.object.metadata.name;
      const hpa = findObject(objects, "HorizontalPodAutoscaler", name);
      expect({ name, target: (hpa?.spec as { scaleTargetRef?: object })?.scaleTargetRef }).toEqual({
        name,
        target: { apiVersion: "apps/v1", kind: "Deployment", name }
      });
      const { minReplicas, maxReplicas } = hpa?.spec as { minReplicas: number; maxReplicas: number };
      expect(minReplicas).toBeLessThanOrEqual(maxReplicas);
      // The autoscaler owns the count: a replicas field would be reset by every apply.
      expect((owner.object.spec as { replicas?: number }).replicas).toBeUndefined();
      const pdb = objects.find(
        o =>
          o.kind === "PodDisruptionBudget" &&
          matchesSelector(owner.labels, (o.spec as { selector: { matchLabels: Record<string, string> } }).selector.matchLabels)
      );
      expect({ name, pdb: pdb?.metadata.name }).toEqual({ name, pdb: name });
    }
    for (const kind of ["HorizontalPodAutoscaler", "PodDisruptionBudget"]) {
      // A backend cluster run here (prod's NATS StatefulSet) keeps its own PodDisruptionBudget.
      const backendBudget = (o: KubeObject) =>
        kind === "PodDisruptionBudget" &&
        podOwners(objects).some(
          owner =>
            owner.object.kind === "StatefulSet" &&
            matchesSelector(owner.labels, (o.spec as { selector: { matchLabels: Record<string, string> } }).selector.matchLabels)
        );
      const stale = objects.filter(
        o => o.kind === kind && !appOwners(objects).some(owner => owner.object.metadata.name === o.metadata.name) && !backendBudget(o)
      );
      expect(stale.map(o => o.metadata.name)).toEqual([]);
    }
  });

  test("every container runs as a numeric non-root user, read-only, without privilege escalation or capabilities, under RuntimeDefault seccomp", () => {
    for (const owner of podOwners(objects)) {
      const pod = owner.spec.securityContext ?? {};
      for (const container of containersOf(owner)) {
        const own = container.securityContext ?? {};
        const effective = {
          where: `${owner.object.metadata.name}/${container.name}`,
          runAsNonRoot: own.runAsNonRoot ?? pod.runAsNonRoot,
          numericUser: (own.runAsUser ?? pod.runAsUser ?? 0) > 0,
          readOnlyRootFilesystem: own.readOnlyRootFilesystem,
          allowPrivilegeEscalation: own.allowPrivilegeEscalation,
          dropsAll: own.capabilities?.drop?.includes("ALL") ?? false,
          seccomp: (own.seccompProfile ?? pod.seccompProfile)?.type
        };
        expect(effective).toEqual({
          where: effective.where,
          runAsNonRoot: true,
          numericUser: true,
          readOnlyRootFilesystem: true,
          allowPrivilegeEscalation: false,
          dropsAll: true,
          seccomp: "RuntimeDefault"
        });
      }
    }
    for (const owner of appOwners(objects)) {
      const pod = owner.spec.securityContext ?? {};
      for (const container of owner.spec.containers) {
        // The image's `node` user: the Dockerfile's USER 1000:1000.
        expect([container.securityContext?.runAsUser ?? pod.runAsUser, container.securityContext?.runAsGroup ?? pod.runAsGroup]).toEqual([
          APP_UID,
          APP_UID
        ]);
      }
      expect(owner.spec.automountServiceAccountToken).toBe(false);
    }
  });

  test("every relay container runs its one service from a pinned image in a registry, configured from the ConfigMap and the Secret", () => {
    for (const owner of appOwners(objects)) {
      expect(owner.spec.containers).toHaveLength(1);
      const [container] = owner.spec.containers;
      expect({ component: componentOf(owner), SERVICES: envValue(container, "SERVICES") }).toEqual({
        component: componentOf(owner),
        SERVICES: componentOf(owner)
      });
      expect(container.image).toMatch(IMAGE_WITH_REGISTRY);
      expect(pinned(container.image ?? "")).toBe(true);
      const sources = (container.envFrom ?? []).map(s => s.configMapRef?.name ?? s.secretRef?.name);
      expect(sources).toEqual([
        findGenerated(objects, "ConfigMap", "relay-config")?.metadata.name,
        overlay === "dev" ? findGenerated(objects, "Secret", "relay-secrets")?.metadata.name : "relay-secrets"
      ]);
    }
    for (const owner of podOwners(objects)) {
      for (const container of containersOf(owner)) expect(container.image).toMatch(IMAGE_WITH_REGISTRY);
    }
  });

  test("every workload has startup, liveness and readiness probes; relay pods: /healthz and /readyz on HEALTH_PORT, the gateway ready on its own port", () => {
    const healthPort = Number(configData(objects).HEALTH_PORT);
    expect(healthPort).toBe(8081);
    for (const owner of podOwners(objects)) {
      for (const container of owner.spec.containers) {
        expect({
          where: container.name,
          startup: !!container.startupProbe,
          liveness: !!container.livenessProbe,
          readiness: !!container.readinessProbe
        }).toEqual({
          where: container.name,
          startup: true,
          liveness: true,
          readiness: true
        });
      }
    }
    for (const owner of appOwners(objects)) {
      const [container] = owner.spec.containers;
      const probe = (p: IContainer["livenessProbe"]) => ({ path: p?.httpGet?.path, port: portNumber(container, p?.httpGet?.port) });
      const ownPort = componentOf(owner) === "gateway" ? Number(envValue(container, "PORT")) : healthPort;
      expect({
        service: componentOf(owner),
        startup: probe(container.startupProbe),
        liveness: probe(container.livenessProbe),
        readiness: probe(container.readinessProbe)
      }).toEqual({
        service: componentOf(owner),
        // Migrations run at start: the startup probe waits for the broker (not for the services it
        // depends on: one that is away must restart nobody), then liveness takes over.
        startup: { path: "/startedz", port: healthPort },
        liveness: { path: "/healthz", port: healthPort },
        readiness: { path: "/readyz", port: ownPort }
      });
      const startup = container.startupProbe!;
      expect((startup.periodSeconds ?? 10) * (startup.failureThreshold ?? 3)).toBeGreaterThanOrEqual(120);
    }
  });

  test("termination grace covers the shutdown; requests and limits; spread over zones and nodes; metrics announced", () => {
    const inFlightSeconds = (brokerOptions(loadConfig({})).tracking?.shutdownTimeout ?? 0) / 1000;
    const metricsPort = Number(configData(objects).METRICS_PORT);
    for (const owner of appOwners(objects)) {
      const [container] = owner.spec.containers;
      const preStop = Number(container.lifecycle?.preStop?.exec?.command?.[1] ?? 0);
      // preStop, in-flight requests, then stopping services and closing pools (10 s).
      expect(owner.spec.terminationGracePeriodSeconds).toBeGreaterThanOrEqual(preStop + inFlightSeconds + 10);
      const resources = container.resources ?? {};
      expect(Object.keys(resources.requests ?? {}).sort()).toEqual(["cpu", "memory"]);
      expect(Object.keys(resources.limits ?? {}).sort()).toEqual(["cpu", "memory"]);
      const spread = owner.spec.topologySpreadConstraints ?? [];
      expect(spread.map(c => c.topologyKey).sort()).toEqual(["kubernetes.io/hostname", "topology.kubernetes.io/zone"]);
      for (const constraint of spread) expect(matchesSelector(owner.labels, constraint.labelSelector?.matchLabels)).toBe(true);
      expect(owner.annotations["prometheus.io/scrape"]).toBe("true");
      expect(Number(owner.annotations["prometheus.io/port"])).toBe(metricsPort);
      expect(container.ports?.map(p => p.containerPort)).toContain(metricsPort);
    }
  });

  test("every relay pod keeps the SSRF guard on (WEBHOOK_ALLOW_PRIVATE false)", () => {
    for (const owner of appOwners(objects)) {
      const env = environmentOf(objects, owner.spec.containers[0]);
      expect({ service: componentOf(owner), allowPrivate: loadConfig(env).webhookAllowPrivate }).toEqual({
        service: componentOf(owner),
        allowPrivate: false
      });
      expect(env.WEBHOOK_ALLOW_PRIVATE).toBe("false");
    }
  });

  test("every environment variable a relay pod is given is one the code reads", () => {
    const environments = appOwners(objects).flatMap(owner => owner.spec.containers.map(c => environmentOf(objects, c)));
    const reads = variablesTheCodeReads(environments);
    const given = new Set(environments.flatMap(env => Object.keys(env)));
    expect([...given].filter(name => !reads.has(name))).toEqual([]);
  });

  test("only the gateway takes traffic from outside: Service, Ingress on public paths at PUBLIC_BASE_URL's host, deny-by-default policies", () => {
    const service = findObject(objects, "Service", "relay-gateway")!;
    const gateway = appOwners(objects).find(owner => componentOf(owner) === "gateway")!;
    const serviceSpec = service.spec as { selector: Record<string, string>; ports: Array<{ name: string; targetPort: string }> };
    expect(matchesSelector(gateway.labels, serviceSpec.selector)).toBe(true);
    expect(gateway.spec.containers[0].ports?.map(p => p.name)).toContain(serviceSpec.ports[0].targetPort);

    const ingresses = objects.filter(o => o.kind === "Ingress");
    expect(ingresses.map(i => i.metadata.name)).toEqual(["relay-gateway"]);
    const ingress = ingresses[0].spec as {
      rules: Array<{
        host: string;
        http: { paths: Array<{ path: string; backend: { service: { name: string; port: { name: string } } } }> };
      }>;
      tls?: Array<{ hosts: string[] }>;
    };
    const publicHost = new URL(configData(objects).PUBLIC_BASE_URL).host;
    expect(ingress.rules.map(r => r.host)).toEqual([publicHost]);
    if (configData(objects).PUBLIC_BASE_URL.startsWith("https:")) expect(ingress.tls?.flatMap(t => t.hosts)).toEqual([publicHost]);
    const paths = ingress.rules.flatMap(r => r.http.paths);
    expect(paths.map(p => p.path)).toContain("/api/partner/v1");
    expect(paths.filter(p => /backoffice|healthz|readyz|^\/$/.test(p.path))).toEqual([]);
    for (const p of paths) expect(p.backend.service).toEqual({ name: "relay-gateway", port: { name: serviceSpec.ports[0].name } });

    type Policy = {
      podSelector: { matchLabels?: Record<string, string> };
      policyTypes: string[];
      ingress?: Array<{ from?: object[]; ports?: Array<{ port: number; protocol?: string }> }>;
      egress?: Array<{ to?: object[]; ports?: Array<{ port: number; protocol?: string }> }>;
    };
    const policies = objects.filter(o => o.kind === "NetworkPolicy").map(o => ({ name: o.metadata.name, spec: o.spec as Policy }));
    const selectsAll = (p: Policy) => Object.keys(p.podSelector.matchLabels ?? {}).length === 0 && !("matchExpressions" in p.podSelector);
    expect(
      policies.filter(p => selectsAll(p.spec) && !p.spec.ingress && !p.spec.egress && p.spec.policyTypes.join() === "Ingress,Egress")
    ).toHaveLength(1);
    expect(
      policies.some(
        p => selectsAll(p.spec) && p.spec.egress?.some(rule => rule.ports?.some(port => port.port === 53 && port.protocol === "UDP"))
      )
    ).toBe(true);
    const openIngress = policies.filter(p => p.spec.ingress?.some(rule => !rule.from));
    // Behind a trusted proxy the gateway limits by the X-Forwarded-For entry the proxy writes: a
    // client that could reach it directly would write its own, so only the proxy may reach it.
    if (Number(environmentOf(objects, gateway.spec.containers[0]).TRUST_PROXY_HOPS ?? 0) >= 1) {
      expect(openIngress.map(p => p.name)).toEqual([]);
      const gatewayPolicies = policies.filter(p => matchesSelector(gateway.labels, p.spec.podSelector.matchLabels));
      const gatewayPort = Number(envValue(gateway.spec.containers[0], "PORT"));
      const toGateway = gatewayPolicies
        .flatMap(p => p.spec.ingress ?? [])
        .filter(rule => rule.ports?.some(port => port.port === gatewayPort));
      expect(toGateway.length).toBeGreaterThan(0);
      for (const rule of toGateway) expect(rule.from?.length).toBeGreaterThan(0);
    }
    for (const policy of openIngress)
      expect({ policy: policy.name, selects: policy.spec.podSelector.matchLabels }).toEqual({
        policy: policy.name,
        selects: { ...APP_LABEL, "app.kubernetes.io/component": "gateway" }
      });
    const egressPorts = (component: string) =>
      policies
        .filter(p => p.spec.podSelector.matchLabels?.["app.kubernetes.io/component"] === component)
        .flatMap(p => p.spec.egress?.flatMap(rule => rule.ports?.map(port => port.port) ?? []) ?? []);
    expect(egressPorts("webhooks").sort()).toEqual([443, 80]);
    expect(egressPorts("notifications")).toEqual([443]);
  });

  if (overlay === "dev") {
    test("every relay pod's environment passes the checks its process makes at start (exit 2 otherwise)", () => {
      for (const owner of appOwners(objects)) {
        const env = environmentOf(objects, owner.spec.containers[0]);
        expect({ service: componentOf(owner), problem: startProblem(env) }).toEqual({ service: componentOf(owner), problem: null });
      }
    });
  }

  if (overlay === "prod") {
    test("PostgreSQL is a CloudNativePG Cluster of three, synchronous, that passes the operator's vendored CRD; every relay pod uses its -rw Service", () => {
      const cluster = findObject(objects, "Cluster", "relay-postgres");
      expect(cluster?.apiVersion).toBe("postgresql.cnpg.io/v1");
      // The CRD's schema is applied (the first test); its CEL rules are not, so the ones that matter are held here.
      expect(verdicts.find(v => v.kind === "Cluster")).toEqual({ kind: "Cluster", name: "relay-postgres", error: null });
      const spec = cluster?.spec as {
        instances: number;
        enablePDB: boolean;
        postgresql: { synchronous: { method: string; number: number; dataDurability: string }; parameters: Record<string, string> };
        bootstrap: { initdb: { database: string; owner: string } };
      };
      expect(spec.instances).toBe(3);
      // An acknowledged commit is on the primary and at least one replica, even when the replicas lag (required, not preferred).
      expect(spec.postgresql.synchronous).toEqual({ method: "any", number: 1, dataDurability: "required" });
      expect(spec.enablePDB).toBe(true);
      // The operator's app Secret is <cluster>-app, its uri on the <cluster>-rw Service (the primary).
      const app = `${cluster!.metadata.name}-app`;
      for (const owner of appOwners(objects)) {
        const variable = owner.spec.containers[0].env?.find(v => v.name === "DATABASE_URL");
        expect({ service: componentOf(owner), from: variable?.valueFrom?.secretKeyRef }).toEqual({
          service: componentOf(owner),
          from: { name: app, key: "uri" }
        });
      }
      const pool = Number(configData(objects).DATABASE_POOL_SIZE);
      const pods = objects
        .filter(o => o.kind === "HorizontalPodAutoscaler")
        .reduce((sum, o) => sum + (o.spec as { maxReplicas: number }).maxReplicas, 0);
      expect(pods * pool + 3).toBeLessThanOrEqual(Number(spec.postgresql.parameters.max_connections));
    });

    test("NATS: three replicas routed to each other, a PodDisruptionBudget keeping two, and every relay pod given all three", () => {
      const nats = podOwners(objects).find(o => o.object.kind === "StatefulSet" && o.labels["app.kubernetes.io/name"] === "nats")!;
      const spec = nats.object.spec as { replicas: number; serviceName: string };
      expect(spec.replicas).toBe(3);
      const members = Array.from({ length: spec.replicas }, (_, i) => `${nats.object.metadata.name}-${i}.${spec.serviceName}`);
      const conf = (findObject(objects, "ConfigMap", "relay-nats-config")?.data as Record<string, string>)["nats.conf"];
      expect(conf).toMatch(/cluster \{/);
      for (const member of members) expect(conf).toContain(`nats://${member}:6222`);
      expect((findObject(objects, "Service", spec.serviceName)?.spec as { clusterIP: string }).clusterIP).toBe("None");
      const pdb = objects.find(
        o =>
          o.kind === "PodDisruptionBudget" &&
          matchesSelector(nats.labels, (o.spec as { selector: { matchLabels: Record<string, string> } }).selector.matchLabels)
      );
      expect((pdb?.spec as { minAvailable: number }).minAvailable).toBe(2);
      for (const owner of appOwners(objects)) {
        const transporter = envValue(owner.spec.containers[0], "TRANSPORTER") ?? "";
        expect({ service: componentOf(owner), servers: transporter.split(",").map(url => new URL(url).hostname) }).toEqual({
          service: componentOf(owner),
          servers: members
        });
        // What the process reads at start: the whole list, given to Moleculer's NATS transporter.
        expect(loadConfig({ TRANSPORTER: transporter }).transporter).toBe(transporter);
      }
    });

    test("renders no Secret: relay-secrets comes from the secret manager, with the template's keys", () => {
      expect(objects.filter(o => o.kind === "Secret")).toEqual([]);
      const referenced = new Set(
        appOwners(objects).flatMap(o => o.spec.containers.flatMap(c => (c.envFrom ?? []).flatMap(s => s.secretRef?.name ?? [])))
      );
      expect([...referenced]).toEqual([templateSecret().metadata.name]);
      expect(Object.keys(templateSecret().stringData)).toEqual(
        expect.arrayContaining(["DATABASE_URL", "BACKOFFICE_TOKEN", "ENCRYPTION_KEY", "LABEL_URL_SECRET"])
      );
    });
  } else {
    test("every Secret a pod reads is rendered, with the keys it asks for; no key outside the template", () => {
      for (const owner of podOwners(objects)) {
        for (const container of containersOf(owner)) {
          for (const source of container.envFrom ?? []) {
            if (source.secretRef) expect(findObject(objects, "Secret", source.secretRef.name ?? "")).toBeDefined();
          }
          for (const variable of container.env ?? []) {
            const ref = variable.valueFrom?.secretKeyRef;
            if (ref) expect(Object.keys(secretData(findObject(objects, "Secret", ref.name ?? "")!))).toContain(ref.key);
          }
        }
      }
      const appSecret = secretData(findGenerated(objects, "Secret", "relay-secrets")!);
      expect(Object.keys(templateSecret().stringData)).toEqual(expect.arrayContaining(Object.keys(appSecret)));
    });

    test("PostgreSQL: headless Service, PGDATA below the volume root, DATABASE_URL and the server agree; NATS and Redis URLs name their Services", () => {
      const postgres = podOwners(objects).find(o => o.object.kind === "StatefulSet")!;
      const serviceName = (postgres.object.spec as { serviceName: string }).serviceName;
      const headless = findObject(objects, "Service", serviceName)?.spec as { clusterIP?: string; ports: Array<{ port: number }> };
      expect(headless.clusterIP).toBe("None");
      const [container] = postgres.spec.containers;
      const dataMount = container.volumeMounts?.find(m => m.name === "data")?.mountPath ?? "";
      const pgdata = envValue(container, "PGDATA") ?? "";
      expect(path.posix.relative(dataMount, pgdata)).toMatch(/^[^./][^/]*$/);

      const passwordRef = container.env?.find(v => v.name === "POSTGRES_PASSWORD")?.valueFrom?.secretKeyRef;
      const serverPassword = secretData(findObject(objects, "Secret", passwordRef?.name ?? "")!)[passwordRef?.key ?? ""];
      const app = secretData(findGenerated(objects, "Secret", "relay-secrets")!);
      const url = new URL(app.DATABASE_URL);
      expect({ user: url.username, password: decodeURIComponent(url.password), database: url.pathname.slice(1) }).toEqual({
        user: envValue(container, "POSTGRES_USER"),
        password: serverPassword,
        database: envValue(container, "POSTGRES_DB")
      });
      expect([url.hostname, Number(url.port)]).toEqual([serviceName, headless.ports[0].port]);
      // Every relay pod counted, at the autoscalers' maxima, with its whole pool and the 3 reserved slots.
      const maxConnections = Number(/max_connections=(\d+)/.exec((container.args ?? []).join(" "))?.[1]);
      const pool = Number(configData(objects).DATABASE_POOL_SIZE);
      const pods = objects
        .filter(o => o.kind === "HorizontalPodAutoscaler")
        .reduce((sum, o) => sum + (o.spec as { maxReplicas: number }).maxReplicas, 0);
      expect(pods * pool + 3).toBeLessThanOrEqual(maxConnections);
      for (const variable of ["TRANSPORTER", "REDIS_URL"]) {
        const target = new URL(app[variable]);
        const service = findObject(objects, "Service", target.hostname)?.spec as { ports: Array<{ port: number }> } | undefined;
        expect({ variable, port: service?.ports[0].port }).toEqual({ variable, port: Number(target.port) });
      }
    });
  }
});

describe("docker-compose.yml", () => {
  type ComposeService = {
    build?: unknown;
    image?: string;
    environment?: Record<string, unknown>;
    depends_on?: Record<string, { condition: string }>;
    healthcheck?: { test: string[] };
    ports?: string[];
    deploy?: { replicas?: number };
  };
  const file = path.join(ROOT, "docker-compose.yml");
  const compose = () => readYamlDocuments(file)[0] as { services: Record<string, ComposeService> };
  const relayServices = () => Object.entries(compose().services).filter(([, s]) => s.build !== undefined);
  const envExample = () =>
    Object.fromEntries(
      fs
        .readFileSync(path.join(ROOT, ".env.example"), "utf8")
        .split("\n")
        .filter(line => line.trim() && !line.startsWith("#"))
        .map(line => {
          const [, name, value] = /^([A-Z0-9_]+)=(.*)$/.exec(line) ?? [line, line, ""];
          return [name, value];
        })
    );

  test("with .env.example's values, every relay service's environment passes the checks its process makes at start", () => {
    const example = Object.fromEntries(Object.entries(envExample()).map(([name, value]) => [name, value.replace(/^"|"$/g, "")]));
    const interpolate = (value: string) => value.replace(/\$\{([A-Z0-9_]+)(?::?[?-][^}]*)?\}/g, (_, name: string) => example[name] ?? "");
    for (const [name, service] of relayServices()) {
      const env = Object.fromEntries(Object.entries(service.environment ?? {}).map(([key, value]) => [key, interpolate(String(value))]));
      expect({ name, problem: startProblem(env) }).toEqual({ name, problem: null });
    }
  });

  test("passes the Compose specification's JSON schema", () => {
    const schemaFile = path.join(path.dirname(require.resolve("dclint/package.json")), "schemas", "compose.schema.json");
    const validate = new Ajv({ allErrors: true, strict: false, validateSchema: false }).compile(
      JSON.parse(fs.readFileSync(schemaFile, "utf8"))
    );
    validate(compose());
    expect(validate.errors ?? []).toEqual([]);
  });

  test("NATS, PostgreSQL and Redis have health checks, and every relay service waits for them to be healthy", () => {
    for (const name of ["nats", "postgres", "redis"]) expect(compose().services[name].healthcheck?.test[0]).toBe("CMD");
    for (const [name, service] of relayServices()) {
      expect({ name, depends_on: service.depends_on }).toEqual({
        name,
        depends_on: {
          nats: { condition: "service_healthy" },
          postgres: { condition: "service_healthy" },
          redis: { condition: "service_healthy" }
        }
      });
    }
  });

  test("every service runs, nothing unknown; two gateways on different host ports; no host port published twice", () => {
    const names = relayServices().map(([, s]) => String(s.environment?.SERVICES));
    expect([...new Set(names)].sort()).toEqual([...ALL_SERVICES].sort());
    expect(names.filter(n => n === "gateway").length).toBeGreaterThanOrEqual(2);
    const hostPorts = Object.values(compose().services).flatMap(s => (s.ports ?? []).map(p => p.split(":").slice(0, -1).join(":")));
    expect(new Set(hostPorts).size).toBe(hostPorts.length);
    expect(hostPorts.length).toBeGreaterThanOrEqual(2);
    for (const [name, service] of Object.entries(compose().services)) {
      if ((service.deploy?.replicas ?? 1) > 1) expect({ name, ports: service.ports ?? [] }).toEqual({ name, ports: [] });
    }
  });

  test("every environment value is a string, relay variables are ones the code reads, secrets come from .env and fail clearly when missing", () => {
    for (const service of Object.values(compose().services)) {
      for (const [name, value] of Object.entries(service.environment ?? {}))
        expect({ name, type: typeof value }).toEqual({ name, type: "string" });
    }
    const environments = relayServices().map(([, s]) => s.environment as Record<string, string>);
    const reads = variablesTheCodeReads(environments);
    expect([...new Set(environments.flatMap(Object.keys))].filter(name => !reads.has(name))).toEqual([]);
    for (const env of environments) {
      for (const name of ["BACKOFFICE_TOKEN", "ENCRYPTION_KEY", "LABEL_URL_SECRET"])
        expect(env[name]).toMatch(new RegExp(`^\\$\\{${name}:\\?[^}]+\\}$`));
      expect(env.DATABASE_URL).toMatch(/^postgres:\/\/relay:\$\{POSTGRES_PASSWORD:\?[^}]+\}@postgres:5432\/relay$/);
    }
    expect(compose().services.postgres.environment?.POSTGRES_PASSWORD).toMatch(/^\$\{POSTGRES_PASSWORD:\?[^}]+\}$/);
  });

  test(".env.example: every variable the compose file interpolates, quoted, with values that say they are examples; .env is never committed nor sent to a build", () => {
    const interpolated = new Set([...fs.readFileSync(file, "utf8").matchAll(/\$\{([A-Z0-9_]+)/g)].map(m => m[1]));
    const example = envExample();
    expect(Object.keys(example).sort()).toEqual([...interpolated].sort());
    for (const [name, value] of Object.entries(example)) expect({ name, quoted: /^"[^"]*"$/.test(value) }).toEqual({ name, quoted: true });
    expect(example.ENCRYPTION_KEY).toMatch(/^"[0-9a-f]{64}"$/);
    for (const name of ["POSTGRES_PASSWORD", "BACKOFFICE_TOKEN", "LABEL_URL_SECRET"]) expect(example[name]).toContain("example");
    for (const ignore of [".gitignore", ".dockerignore"])
      expect(fs.readFileSync(path.join(ROOT, ignore), "utf8").split("\n")).toContain(".env");
  });
});

describe("Dockerfile", () => {
  /** Instructions, continuation lines joined, grouped by stage. */
  const stages = () => {
    const lines = fs
      .readFileSync(path.join(ROOT, "Dockerfile"), "utf8")
      .replace(/\\\n\s*/g, " ")
      .split("\n");
    const result: Array<{ name: string; instructions: string[] }> = [];
    for (const line of lines.map(l => l.trim()).filter(l => l && !l.startsWith("#"))) {
      if (line.startsWith("FROM ")) result.push({ name: /\bAS\s+(\S+)/i.exec(line)?.[1] ?? "", instructions: [] });
      result[result.length - 1].instructions.push(line);
    }
    return result;
  };

  test("multi-stage; npm never runs install scripts; the final image has production dependencies only", () => {
    const all = stages();
    expect(all.length).toBeGreaterThanOrEqual(2);
    const npmInstalls = all.flatMap(s => s.instructions).filter(i => /\bnpm (ci|install|i)\b/.test(i));
    expect(npmInstalls.length).toBeGreaterThan(0);
    for (const instruction of npmInstalls) expect(instruction).toContain("--ignore-scripts");
    const final = all[all.length - 1];
    const modulesFrom = final.instructions.map(i => /^COPY --from=(\S+) \S*node_modules/.exec(i)?.[1]).filter(Boolean);
    expect(modulesFrom).toHaveLength(1);
    const source = all.find(s => s.name === modulesFrom[0])!;
    expect(source.instructions.some(i => /\bnpm ci\b.*--omit=dev/.test(i))).toBe(true);
    expect(final.instructions.some(i => /^RUN .*\bnpm (ci|install)\b/.test(i))).toBe(false);
  });

  test("runs as uid:gid 1000:1000, checks its own health, and sets only variables the code reads", () => {
    const final = stages()[stages().length - 1].instructions;
    expect(final.filter(i => i.startsWith("USER "))).toEqual([`USER ${APP_UID}:${APP_UID}`]);
    expect(final.some(i => /^HEALTHCHECK .*\/readyz/.test(i))).toBe(true);
    const names = final.filter(i => i.startsWith("ENV ")).flatMap(i => [...i.slice(4).matchAll(/([A-Z0-9_]+)=/g)].map(m => m[1]));
    const reads = variablesTheCodeReads([]);
    expect(names.filter(name => !reads.has(name))).toEqual([]);
    expect(names.length).toBeGreaterThan(0);
  });

  test("keeps the SSRF guard on: WEBHOOK_ALLOW_PRIVATE=false, also for an embedded `docker run`", () => {
    const final = stages()[stages().length - 1].instructions;
    const env = Object.fromEntries(
      final.filter(i => i.startsWith("ENV ")).flatMap(i => [...i.slice(4).matchAll(/([A-Z0-9_]+)=(\S+)/g)].map(m => [m[1], m[2]]))
    );
    expect(env.WEBHOOK_ALLOW_PRIVATE).toBe("false");
    expect(loadConfig(env).webhookAllowPrivate).toBe(false);
  });
});
