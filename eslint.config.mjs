// ESLint flat config: typescript-eslint's recommended rules over the whole project; formatting is
// Prettier's business (eslint-config-prettier turns off the rules that would fight it).
import js from "@eslint/js";
import prettier from "eslint-config-prettier";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: [
      "dist/",
      "node_modules/",
      "coverage/",
      ".ci-artifacts/",
      "clients/typescript/partner-api.d.ts",
      "sdk/typescript/src/generated/",
      "sdk/typescript/dist/",
      "clients/python/",
      "clients/php/"
    ]
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    // A warning is a failure too: `npm run lint` runs in CI and must come out clean.
    linterOptions: { reportUnusedDisableDirectives: "error" },
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: "module",
      globals: { ...globals.node, ...globals.jest }
    },
    rules: {
      // `_name` says "deliberately unused" (a handler's ignored argument, a destructured rest).
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none", ignoreRestSiblings: true }
      ],
      eqeqeq: ["error", "always"],
      "no-console": "error",
      "prefer-const": "error",
      "object-shorthand": "error"
    }
  },
  {
    // CommonJS helpers loaded with `node --require` and jest's own config.
    files: ["**/*.cjs", "jest.config.js"],
    languageOptions: { sourceType: "commonjs" },
    rules: { "@typescript-eslint/no-require-imports": "off" }
  },
  {
    // Tests print diagnostics and read JSON answers loosely (the OpenAPI validator checks their
    // shapes); the benchmark prints its table.
    files: ["test/**", "bench/**"],
    rules: { "no-console": "off", "@typescript-eslint/no-explicit-any": "off" }
  },
  {
    // The browser apps (counter app, checkout picker): browser globals, no Node.
    files: ["web/**"],
    languageOptions: { globals: { ...globals.browser, ...globals.serviceworker } }
  },
  prettier
);
