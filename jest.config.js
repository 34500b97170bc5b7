// Three projects: `unit` (pure logic and services, *.spec.ts beside the code in src/, packages/ and
// scripts/: no Redis, no Postgres, no socket), `integration` (one component against a real Redis or a
// real socket, test/integration/*.integration-spec.ts) and `e2e` (the engine with real Postgres, Redis and
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
// The workspace packages (packages/*) resolve to their sources, as in tsconfig.json's paths: tests
// need no build of them, and a change to a package is tested at once.
const packages = {
  moduleNameMapper: {
    '^@crm-rules/(crm-contract|crm-sandbox)$': '<rootDir>/packages/$1/src/index.ts',
  },
  modulePathIgnorePatterns: ['<rootDir>/packages/[^/]+/dist/'],
};
// openid-client v6 and its dependencies are ES modules only. Node 20.19+ require()s them as they
// are (the built engine does), but jest's module loader does not: swc turns them into CommonJS.
const esmOnly = {
  transform: {
    '^.+\\.ts$': swc,
    '/node_modules/(openid-client|oauth4webapi|jose)/.+\\.js$': [
      '@swc/jest',
      { jsc: { target: 'es2022' }, module: { type: 'commonjs' } },
    ],
  },
  transformIgnorePatterns: ['/node_modules/(?!(openid-client|oauth4webapi|jose)/)'],
};
module.exports = {
  // Global (jest ignores it per project): e2e tests boot real services.
  testTimeout: 60000,
  projects: [
    {
      displayName: 'unit',
      testEnvironment: 'node',
      roots: ['<rootDir>/src', '<rootDir>/packages', '<rootDir>/scripts', '<rootDir>/bench'],
      testMatch: ['**/*.spec.ts'],
      transform: { '^.+\\.ts$': swc },
      ...packages,
    },
    {
      displayName: 'integration',
      testEnvironment: 'node',
      roots: ['<rootDir>/test'],
      testMatch: ['**/*.integration-spec.ts'],
      transform: { '^.+\\.ts$': swc },
      setupFiles: ['<rootDir>/test/support/e2e-env.ts'],
      ...esmOnly,
      ...packages,
    },
    {
      displayName: 'e2e',
      testEnvironment: 'node',
      roots: ['<rootDir>/test', '<rootDir>/packages/crm-sandbox/test'],
      testMatch: ['**/*.e2e-spec.ts'],
      transform: { '^.+\\.ts$': swc },
      setupFiles: ['<rootDir>/test/support/e2e-env.ts'],
      ...esmOnly,
      ...packages,
    },
  ],
};
