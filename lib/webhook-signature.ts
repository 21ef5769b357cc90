/** Kept so that existing imports keep working; the modules live in lib/webhook-signing/. */
export * from "./webhook-signing";
