// How commands talk to the terminal: `run` takes an io so tests capture the output in-process.
export interface CliIo {
  out(text: string): void;
  err(text: string): void;
}

export type Print = (line?: string) => void;

/** What a command reports back to `run`: the exit code (0 ok, 1 problems or failures, 2 usage). */
export interface CliState {
  code: number;
}

export const processIo: CliIo = {
  out: (t) => process.stdout.write(t),
  err: (t) => process.stderr.write(t),
};
