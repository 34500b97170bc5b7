// Three projects: `unit` (pure logic and services, *.spec.ts beside the code in src/ and scripts/:
// no Redis, no Postgres, no socket), `integration` (one component against a real Redis or a real
// socket, test/integration/*.integration-spec.ts) and `e2e` (the engine with real Postgres, Redis and
// the sandbox over HTTP, test/**/*.e2e-spec.ts). `npm test` runs all three.
const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      keepClassNames: true,
      target: 'es2022',
    },
  },
];
module.exports = {
  // Global (jest ignores it per project): e2e tests boot real services.
  testTimeout: 60000,
  projects: [
    {
      displayName: 'unit',
      testEnvironment: 'node',
      roots: ['<rootDir>/src', '<rootDir>/scripts'],
      testMatch: ['**/*.spec.ts'],
      transform: { '^.+\\.ts$': swc },
    },
    {
      displayName: 'integration',
      testEnvironment: 'node',
      roots: ['<rootDir>/test'],
      testMatch: ['**/*.integration-spec.ts'],
      transform: { '^.+\\.ts$': swc },
    },
    {
      displayName: 'e2e',
      testEnvironment: 'node',
      roots: ['<rootDir>/test'],
      testMatch: ['**/*.e2e-spec.ts'],
      transform: { '^.+\\.ts$': swc },
    },
  ],
};
