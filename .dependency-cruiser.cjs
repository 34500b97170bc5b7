// The import boundaries `npm run lint` enforces (dependency-cruiser), one rule per boundary; each
// rule's comment says why it exists. test/tools/boundaries.e2e-spec.ts runs this file on a fixture
// tree that breaks every rule and expects each rule's name in the failure.
// Type-only imports count here: a boundary is about what a folder knows, not only what it loads.
// What node would load at run time (the core and the CLI reaching a framework through other
// folders) is checked by .dependency-cruiser-runtime.cjs, where type-only imports are left out.
const path = require('node:path');

/** The service frameworks and drivers: the rule language must run without any of them. */
const FRAMEWORKS = 'node_modules/(@nestjs|@bull-board|typeorm|pg|ioredis|bullmq)/';
/** The pure core: the rule language (format, matching, the action catalogue). */
const CORE = '^src/(rules|matching|actions/catalogue)/';

const forbidden = [
  {
    name: 'console-is-a-leaf',
    comment:
      'The operator console is a UI over the engine: nothing in src/ imports it except the module ' +
      'wiring (app.module.ts). Code the core needs lives outside it (src/journal, src/rule-controls).',
    severity: 'error',
    from: { path: '^src/', pathNot: '^src/(console/|app[.]module[.]ts$)' },
    to: { path: '^src/console/' },
  },
  {
    name: 'core-imports-no-framework',
    comment:
      'src/rules, src/matching and src/actions/catalogue are the rule language: pure code the CLI, ' +
      'the tests and the engine share. No Nest, no TypeORM, no pg/ioredis/bullmq.',
    severity: 'error',
    from: { path: CORE },
    to: { path: FRAMEWORKS },
  },
  {
    name: 'sandbox-only-from-engine-boot',
    comment:
      'The CRM sandbox is an emulator for demos, tests and benches: only the engine boot (engine.ts) ' +
      'starts it (embedded mode); the service code never depends on it.',
    severity: 'error',
    from: { path: '^src/', pathNot: '^src/(sandbox/|engine[.]ts$)' },
    to: { path: '^src/sandbox/' },
  },
  {
    name: 'cli-imports-no-nest',
    comment: 'crm-rules (src/cli) runs without the service: no Nest module, no DI container.',
    severity: 'error',
    from: { path: '^src/cli/' },
    to: { path: 'node_modules/@nestjs/' },
  },
];

module.exports = {
  forbidden,
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: path.join(__dirname, 'tsconfig.json') },
  },
};
