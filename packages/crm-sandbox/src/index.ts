// What the CRM sandbox package (@crm-rules/crm-sandbox) offers its readers: the engine's embedded
// demo, the tests and the benches start it in-process; `crm-sandbox` (main.ts) runs it alone.
export {
  startSandbox,
  SANDBOX_BODY_LIMIT,
  type RunningSandbox,
  type SandboxFixture,
  type SandboxOptions,
} from './start-sandbox';
export { demoFixtureWithRecipeNames, RECIPE_NAMES } from './fixtures/recipe-names';
export { DEMO_FIXTURE_PATH } from './domain/fixture-loader';
export { SANDBOX_MAIN_PATH } from './main-path';
