import { restartWithEmbeddedV8Flags } from "./embedded-v8-flags";

// Before anything is loaded: the embedded process starts again with its heap settings.
restartWithEmbeddedV8Flags();
void import("./main");
