// Unit specs live beside the code (src/, *.spec.ts); e2e specs under test/ (*.e2e-spec.ts), with the
// service-level "medium" specs (*.medium-spec.ts: modules on a real database, no HTTP) beside them.
const common = {
  moduleFileExtensions: ['js', 'json', 'ts'],
  rootDir: '.',
  modulePaths: ['<rootDir>'],
  transform: { '^.+\\.ts$': ['ts-jest', { diagnostics: false }] },
  testEnvironment: 'node',
};

module.exports = {
  // Against a deployed sandbox sharing the machine with the run, requests take longer.
  testTimeout: process.env.E2E_BASE_URL ? 90000 : 30000,
  reporters: ['default', '<rootDir>/test/support/summary-reporter.js'],
  projects: [
    {
      ...common,
      displayName: 'unit',
      // Unit specs of the test support code (the OpenAPI response check) sit beside it.
      testMatch: [
        '<rootDir>/src/**/*.spec.ts',
        '<rootDir>/test/support/**/*.spec.ts',
        // The committed OpenAPI document held to the spec's tables (no server needed).
        '<rootDir>/test/contract/**/*.spec.ts',
      ],
    },
    {
      ...common,
      displayName: 'e2e',
      // Against a deployed sandbox (E2E_BASE_URL) only the HTTP specs run: medium specs need a database.
      testMatch: process.env.E2E_BASE_URL
        ? ['<rootDir>/test/**/*.e2e-spec.ts']
        : ['<rootDir>/test/**/*.e2e-spec.ts', '<rootDir>/test/**/*.medium-spec.ts'],
      globalSetup: '<rootDir>/test/support/global-setup.ts',
      globalTeardown: '<rootDir>/test/support/global-teardown.ts',
      setupFiles: ['<rootDir>/test/support/env.ts'],
      testEnvironment: '<rootDir>/test/support/e2e-environment.js',
    },
  ],
};
