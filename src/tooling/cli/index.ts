// `crm-rules`: validate, test, explain, forecast, diff and graph rules with no Postgres, Redis or engine
// (only `snapshot` and `plan` reach out: to the CRM and to the engine).
// `run(argv)` is the whole CLI, so tests call it in-process; bin/crm-rules.js only wires it
// to the process. Each command lives in its own file; a new command is one more add… call here.
import { Command, CommanderError } from 'commander';
import { processIo, type CliIo, type CliState } from './cli-io';
import { addDiff } from './diff.command';
import { addExplain } from './explain.command';
import { addForecast } from './forecast.command';
import { addGraph } from './graph.command';
import { addInit } from './init.command';
import { addPlan } from './plan.command';
import { addRun } from './run.command';
import { addBulk } from './bulk.command';
import { addDeploy } from './deploy.command';
import { addSchema } from './schema.command';
import { addSnapshot } from './snapshot.command';
import { addTest } from './test.command';
import { addValidate } from './validate.command';

/** Runs the CLI and resolves to the exit code (0 ok, 1 problems or failures, 2 usage errors). */
export async function run(argv: string[], io: CliIo = processIo): Promise<number> {
  const state: CliState = { code: 0 };
  const program = buildProgram(io, state);
  try {
    await program.parseAsync(argv, { from: 'user' });
    return state.code;
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode === 0 ? 0 : 2;
    io.err(`crm-rules: ${(err as Error).message}\n`);
    return 2;
  }
}

function buildProgram(io: CliIo, state: CliState): Command {
  const program = new Command('crm-rules')
    .description('Validate, test and explain CRM automation rules (YAML).')
    .exitOverride()
    .configureOutput({ writeOut: io.out, writeErr: io.err });
  const println = (line = '') => io.out(`${line}\n`);
  const eprintln = (line = '') => io.err(`${line}\n`);
  addValidate(program, println, eprintln, state);
  addTest(program, println, eprintln, state);
  addExplain(program, println, eprintln, state);
  addPlan(program, println, eprintln, state);
  addRun(program, println, eprintln, state);
  addDeploy(program, println, eprintln, state);
  addBulk(program, println, eprintln, state);
  addSnapshot(program, println, eprintln, state);
  addForecast(program, println, eprintln, state);
  addDiff(program, println, eprintln, state);
  addGraph(program, println, eprintln, state);
  addSchema(program, println, state);
  addInit(program, println, eprintln, state);
  return program;
}
