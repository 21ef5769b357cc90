import { DEFAULT_EMBEDDED_V8_FLAGS, EMBEDDED_MALLOC_ENV, embeddedMallocEnv, embeddedV8Flags } from "../../bin/embedded-v8-flags";

const DEFAULTS = DEFAULT_EMBEDDED_V8_FLAGS.split(" ");

describe("the embedded start's V8 flags", () => {
  it("caps the heap of an embedded process", () => {
    expect(embeddedV8Flags({}, [])).toEqual(DEFAULTS);
    expect(DEFAULTS.some(flag => flag.startsWith("--max-old-space-size="))).toBe(true);
  });

  it("leaves a distributed process (DATABASE_URL) with V8's defaults", () => {
    expect(embeddedV8Flags({ DATABASE_URL: "postgres://postgres@127.0.0.1:5432/relay" }, [])).toEqual([]);
  });

  it("restarts once: a process started with the flags keeps going", () => {
    expect(embeddedV8Flags({}, DEFAULTS)).toEqual([]);
    expect(embeddedV8Flags({ EMBEDDED_V8_FLAGS: "--expose-gc" }, ["--expose-gc"])).toEqual([]);
  });

  it("takes the operator's flags, and none when they are empty", () => {
    expect(embeddedV8Flags({ EMBEDDED_V8_FLAGS: " --max-old-space-size=256  --max-semi-space-size=8 " }, [])).toEqual([
      "--max-old-space-size=256",
      "--max-semi-space-size=8"
    ]);
    expect(embeddedV8Flags({ EMBEDDED_V8_FLAGS: "" }, [])).toEqual([]);
  });

  it("keeps a heap size already chosen on the command line or in NODE_OPTIONS", () => {
    expect(embeddedV8Flags({}, ["--max-old-space-size=512"])).toEqual([]);
    expect(embeddedV8Flags({ NODE_OPTIONS: "--max-semi-space-size=32" }, [])).toEqual([]);
    expect(embeddedV8Flags({ NODE_OPTIONS: "--enable-source-maps" }, [])).toEqual(DEFAULTS);
  });
});

describe("the embedded start's malloc settings", () => {
  it("fixes glibc's trim threshold of an embedded process, and leaves a distributed one alone", () => {
    expect(embeddedMallocEnv({})).toEqual({ MALLOC_TRIM_THRESHOLD_: "131072" });
    expect(embeddedMallocEnv({ DATABASE_URL: "postgres://postgres@127.0.0.1:5432/relay" })).toEqual({});
  });

  it("restarts once and keeps the operator's value", () => {
    expect(embeddedMallocEnv({ ...EMBEDDED_MALLOC_ENV })).toEqual({});
    expect(embeddedMallocEnv({ MALLOC_TRIM_THRESHOLD_: "1048576" })).toEqual({});
  });
});
