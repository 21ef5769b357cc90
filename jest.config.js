/** Jest runs the TypeScript sources directly (type-checking is done once by `npm run typecheck`). */
module.exports = {
  testEnvironment: "node",
  roots: ["<rootDir>/test"],
  testMatch: ["**/*.test.ts"],
  // The SDK's sources import each other as "./x.js" (what its ES module build needs); here they are .ts.
  moduleNameMapper: { "^(\\.{1,2}/.*)\\.js$": "$1" },
  transform: {
    "^.+\\.ts$": ["ts-jest", { diagnostics: false }]
  },
  // Two cores: two workers keep the server-backed suites from starving each other.
  maxWorkers: 2,
  testTimeout: 60000,
  globalSetup: "<rootDir>/test/helpers/global-setup.ts"
};
