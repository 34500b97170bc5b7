// Fixture: run creation, which admission owns.
export const createRun = () => 'run';
