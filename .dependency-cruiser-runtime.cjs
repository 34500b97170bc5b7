// The run-time half of the import boundaries (.dependency-cruiser.cjs holds the other rules): what
// node would load from the core and from the CLI, following imports through every folder. Type-only
// imports are erased by the compiler, so they are left out here (the core names the gateway's type
// in ExecutionEnv without loading Nest).
const base = require('./.dependency-cruiser.cjs');

/** The same zones as the rule named: the run-time rule differs only in following imports. */
const zonesOf = (name) => base.forbidden.find((rule) => rule.name === name);

module.exports = {
  forbidden: [
    {
      name: 'core-loads-no-framework',
      comment:
        'Nothing the rule language imports, however indirectly, loads Nest, TypeORM, pg, ioredis or bullmq.',
      severity: 'error',
      from: zonesOf('core-imports-no-framework').from,
      to: { ...zonesOf('core-imports-no-framework').to, reachable: true },
    },
    {
      name: 'cli-loads-no-nest',
      comment: 'crm-rules starts fast and alone: nothing it imports, however indirectly, loads Nest.',
      severity: 'error',
      from: zonesOf('cli-imports-no-nest').from,
      to: { ...zonesOf('cli-imports-no-nest').to, reachable: true },
    },
  ],
  options: { ...base.options, tsPreCompilationDeps: false },
};
