// Loaded before every integration and e2e test file (jest.config.js setupFiles). An engine with
// CRM_BASE_URL requires a sealing key (src/runtime/config/start-checks.ts); the tests start engines
// pointed at another harness's sandbox and worker processes, all of which spread process.env:
// one fixed test key here makes them share it (a process of another key would seal the harness's
// webhook secrets with its own). A test of the keys themselves sets its own.
process.env.WEBHOOK_SECRET_KEY ??= '7e57c0de7e57c0de7e57c0de7e57c0de7e57c0de7e57c0de7e57c0de7e57c0de';
