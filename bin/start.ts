import { restartWithEmbeddedV8Flags } from "./embedded-v8-flags";
import { keepTickObjectShape } from "./tick-object-shape";

// Before anything is loaded: the embedded process starts again with its heap settings.
restartWithEmbeddedV8Flags();
// Before the start-up's first full GC could drop it (tick-object-shape.ts says why).
keepTickObjectShape();
void import("./main");
