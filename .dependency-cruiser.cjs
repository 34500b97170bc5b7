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
const CORE = '^src/language/';
/** Specs may borrow fixtures across folders (spec support), which the code may not. */
const SPECS = '[.]spec[.]ts$';
/**
 * What the core may name by type only: the CRM's write face and the directory. (The action row's
 * words, ActionStatus and ActionTarget, are the core's own: language/catalogue/action-result-terms.ts.)
 */
const CORE_TYPE_ONLY =
  '^src/outbound/crm-gateway/crm-writes[.]ts$|^src/outbound/crm-gateway/crm-directory[.]service[.]ts$';
/** The CRM's write face (src/outbound/crm-gateway/crm-writes.ts): a file that imports it can change the CRM. */
const CRM_WRITES = '^src/outbound/crm-gateway/crm-writes[.]ts$';
/**
 * The owners of a CRM write that are not execution, each for one reason (crm-writes-only-from-execution).
 * None runs for an event: they act at boot, at a segment rule's sweep, or for the demo.
 */
const CRM_WRITE_OWNERS = [
  // Boot and rule reloads: the engine subscribes itself to the CRM's webhooks (create, delete old).
  '^src/pipeline/intake/subscription[.]service[.]ts$',
  // A segment rule with `sync: true`: its segment is created in the CRM once (POST /v1/segments).
  '^src/pipeline/segments/sweeps/segment-sync[.]service[.]ts$',
  // npm start with the embedded sandbox: the demo contact is found or created.
  '^src/tooling/demo/demo-first-start[.]ts$',
];

const forbidden = [
  {
    name: 'console-is-a-leaf',
    comment:
      'The operator console is a UI over the engine: nothing in src/ imports it except the module ' +
      'wiring (app.module.ts). Code the core needs lives outside it (src/persistence/journal, src/runtime/rule-controls).',
    severity: 'error',
    from: { path: '^src/', pathNot: '^src/(operator/console/|app[.]module[.]ts$)' },
    to: { path: '^src/operator/console/' },
  },
  {
    name: 'core-imports-no-framework',
    comment:
      'src/language (rules, matching, catalogue, segment-filters) is the rule language: pure code the CLI, ' +
      'the tests and the engine share. No Nest, no TypeORM, no pg/ioredis/bullmq.',
    severity: 'error',
    from: { path: CORE },
    to: { path: FRAMEWORKS },
  },
  {
    name: 'sandbox-only-from-engine-boot',
    comment:
      'The CRM sandbox (packages/crm-sandbox) is an emulator for demos, tests and benches: only the ' +
      'engine boot (engine.ts) starts it (embedded mode); the service code never depends on it.',
    severity: 'error',
    from: { path: '^src/', pathNot: '^src/engine[.]ts$' },
    to: { path: '^packages/crm-sandbox/' },
  },
  {
    name: 'sandbox-imports-only-the-contract',
    comment:
      'The sandbox package knows the CRM, not the engine: besides its own files it imports only the ' +
      "contract package (packages/crm-contract), so it builds and runs without the engine's code.",
    severity: 'error',
    from: { path: '^packages/crm-sandbox/' },
    to: { path: '^(src|test|bench|scripts|packages)/', pathNot: '^packages/crm-(sandbox|contract)/' },
  },
  {
    name: 'contract-package-imports-nothing',
    comment:
      "The CRM contract's package (packages/crm-contract: the API's types, the segment filter " +
      'constraints) imports nothing but its own files: no package, no node module, no engine code.',
    severity: 'error',
    from: { path: '^packages/crm-contract/', pathNot: SPECS },
    to: { pathNot: '^packages/crm-contract/' },
  },
  {
    name: 'cli-imports-no-nest',
    comment: 'crm-rules (src/tooling/cli) runs without the service: no Nest module, no DI container.',
    severity: 'error',
    from: { path: '^src/tooling/cli/' },
    to: { path: 'node_modules/@nestjs/' },
  },
  {
    name: 'core-imports-only-core-and-contract',
    comment:
      'The rule language imports nothing of the service: only src/language, src/language/crm-terms and the ' +
      "contract package (the CRM's types). It names the CRM's write face and the directory by type only (next rule).",
    severity: 'error',
    from: { path: CORE, pathNot: [SPECS, '^src/language/(net|crm-terms)/'] },
    to: { path: '^src/', pathNot: `^src/(language|language/crm-terms|language/net)/|${CORE_TYPE_ONLY}` },
  },
  {
    name: 'core-names-services-by-type-only',
    comment:
      "ExecutionEnv names the CRM's write face and the directory: a type-only import, " +
      'erased at compile time, never a value import.',
    severity: 'error',
    from: { path: CORE },
    to: { path: CORE_TYPE_ONLY, dependencyTypesNot: ['type-only'] },
  },
  {
    name: 'net-is-a-leaf',
    comment:
      'src/language/net (IP addresses, the egress allow-list, secret references, the shapes of an outbound ' +
      'request) is pure and shared by config, the core and egress: it imports no other src folder.',
    severity: 'error',
    from: { path: '^src/language/net/', pathNot: '[.]spec[.]ts$' },
    to: { path: '^src/', pathNot: '^src/language/net/' },
  },
  {
    name: 'crm-contract-is-a-leaf',
    comment:
      "The engine's side of the CRM contract (src/language/crm-terms: errors, snapshot, directory match) " +
      'imports no other src folder, only the contract package.',
    severity: 'error',
    from: { path: '^src/language/crm-terms/', pathNot: '[.]spec[.]ts$' },
    to: { path: '^(src|packages)/', pathNot: '^(src/language/crm-terms|packages/crm-contract)/' },
  },
  {
    name: 'only-admission-creates-runs',
    comment:
      'Runs are created in one place, src/pipeline/admission (create-run, record-matched-events, the ' +
      "settlement at creation); the segment sweep admits its entries through admission's entry point " +
      '(admit-segment-entries.ts). Type-only imports (NewRun, PendingRun) are allowed.',
    severity: 'error',
    from: { path: '^src/', pathNot: '^src/pipeline/admission/' },
    to: {
      path: '^src/pipeline/admission/(create-run|record-matched-events(-at-once)?|settle-in-transaction)[.]ts$',
      dependencyTypesNot: ['type-only'],
    },
  },
  {
    name: 'segment-sql-only-in-repositories',
    comment:
      "The segment filters' SQL twin (language/segment-filters/segment-sql.ts) compiles a WHERE " +
      'fragment, never a statement: only a repository (today segment-memberships.repository.ts) puts ' +
      'it into SQL text, so SQL stays in *.repository.ts files (eslint: sql-in-repositories).',
    severity: 'error',
    from: { path: '^src/', pathNot: '[.]repository[.]ts$|^src/language/segment-filters/|[.]spec[.]ts$' },
    to: { path: '^src/language/segment-filters/segment-sql[.]ts$' },
  },
  {
    name: 'gateway-only-from-its-callers',
    comment:
      'The CRM gateway (src/outbound/crm-gateway) is loaded by the pipeline stages, the segment sync and sweeps, the ' +
      'contacts mirror, ops metrics, the toolchain (snapshot, CLI client), the demo and the console; ' +
      'persistence, config, queues, admin, the boot files and the core name it by type at most.',
    severity: 'error',
    from: {
      path: '^src/',
      pathNot: `^src/(outbound/crm-gateway|pipeline|pipeline/segments|pipeline/contact-mirror|operator/ops|tooling/toolchain|tooling/demo|operator/console)/|${SPECS}`,
    },
    to: { path: '^src/outbound/crm-gateway/', dependencyTypesNot: ['type-only'] },
  },
  {
    name: 'gateway-only-through-its-faces',
    comment:
      'One gateway, one budget, handed out as faces (src/outbound/crm-gateway/crm-reads.ts, crm-writes.ts, ' +
      "crm-budget-view.ts): a file's imports say what it may do to the CRM. The gateway itself and the " +
      'raw client stay inside src/outbound/crm-gateway; the one exception is the CLI (toolchain/cli-crm.ts), which ' +
      'runs without Nest or Redis and calls the client behind a budget of its own.',
    severity: 'error',
    from: {
      path: '^src/',
      pathNot: `^src/outbound/crm-gateway/|^src/tooling/toolchain/cli-crm[.]ts$|${SPECS}`,
    },
    to: { path: '^src/outbound/crm-gateway/(crm-gateway[.]service|crm-client)[.]ts$' },
  },
  {
    name: 'crm-writes-only-from-execution',
    comment:
      'The CRM is changed by execution (the action runner, its system steps such as a custom ' +
      "event's contact) and the catalogue it runs (by type: core-names-services-by-type-only), plus " +
      'the owners named in CRM_WRITE_OWNERS, none of which runs for an event. Matching, admission, ' +
      'the mirror, segments sweeps, ops and the console read at most (crm-reads.ts).',
    severity: 'error',
    from: {
      path: '^src/',
      pathNot: [
        '^src/(outbound/crm-gateway|pipeline/execution|language/catalogue)/',
        SPECS,
        ...CRM_WRITE_OWNERS,
      ],
    },
    to: { path: CRM_WRITES },
  },
  {
    name: 'matching-never-writes',
    comment:
      'Matching decides and writes nothing: it plans an event, builds its facts (the payload, one CRM ' +
      'read through CrmReads, change names) and returns the runs they decide (NewRun[]). The events ' +
      'worker (pipeline/events-worker) does the writes: the mirror, the waits, the ledger, admission, ' +
      'dispatch. So matching loads no ledger repository, neither the write face nor the gateway, nothing ' +
      'of execution, admission or the queues, and not the contacts mirror service (its writes); a type ' +
      '(a row, NewRun) is fine.',
    severity: 'error',
    from: { path: '^src/pipeline/matching/', pathNot: SPECS },
    to: {
      path: [
        CRM_WRITES,
        '^src/outbound/crm-gateway/crm-gateway[.]service[.]ts$',
        '^src/persistence/ledger/[^/]+[.]repository[.]ts$',
        '^src/pipeline/(execution|admission)/',
        '^src/runtime/queues/',
        '^src/pipeline/contact-mirror/contact-mirror[.]service[.]ts$',
      ],
      dependencyTypesNot: ['type-only'],
    },
  },
  {
    name: 'persistence-is-below',
    comment:
      'Persistence is the bottom layer: the ledger repositories, the SQL toolkit, the contact journal, ' +
      'the partitions and retention import only each other, the core (row types of the rule language) ' +
      'and the configuration (app-config.ts: the horizons retention reads). Nothing of the pipeline, ' +
      'the gateway, the queues or the operator surfaces: they call persistence, never the reverse. ' +
      "Retention asks each table's owner for its pruner (@PrunesTable, retention/table-pruner.ts) " +
      'instead of importing it.',
    severity: 'error',
    from: { path: '^src/persistence/', pathNot: [SPECS, '^src/persistence/schema/'] },
    to: { path: '^src/', pathNot: '^src/(persistence|language)/|^src/runtime/config/app-config[.]ts$' },
  },
  {
    name: 'persistence-is-below',
    comment:
      "The schema wiring (persistence/schema) is below too, with two named exceptions: TypeORM's " +
      'DataSource needs the class of every entity at construction (entities.ts lists them, and each ' +
      'lives beside the code that owns its table), and the migration CLI (migrate.ts, ' +
      'cli-data-source.ts) reads DATABASE_URL through the config loader the service uses. An entity ' +
      'file and the config, nothing else of the layers above.',
    severity: 'error',
    from: { path: '^src/persistence/schema/', pathNot: SPECS },
    to: {
      path: '^src/',
      pathNot:
        '^src/(persistence|language)/|[.]entity[.]ts$|^src/runtime/config/(app-config|load-config)[.]ts$',
    },
  },
  ...[
    ['intake', 'events-worker|segments'],
    ['segments', 'intake|matching|events-worker'],
    ['matching', 'intake|segments|events-worker'],
    ['admission', 'intake|segments|matching|events-worker'],
    ['execution', 'intake|segments|matching|admission|events-worker'],
    ['events-worker', 'segments'],
    ['contact-mirror', 'segments'],
  ].map(([stage, upstream]) => ({
    name: 'pipeline-flows-downstream',
    comment:
      'An event goes intake → matching → admission → execution; a stage imports the stages after it, ' +
      'never one before (no cycle between stages). The events worker (pipeline/events-worker) runs ' +
      'the stages for one event: it may import every stage, and no stage imports it. The segment ' +
      'sweeps (pipeline/segments) are the other source of work, beside intake: they admit their ' +
      'entries through admission and end waits through execution, and nothing of the pipeline ' +
      'imports them (the module wiring, the schema list and the tooling do).',
    severity: 'error',
    from: { path: `^src/pipeline/${stage}/` },
    to: { path: `^src/pipeline/(${upstream})/` },
  })),
];

module.exports = {
  forbidden,
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: path.join(__dirname, 'tsconfig.json') },
  },
};
