// Fixture (test/tools/boundaries.e2e-spec.ts): a console module other folders must not import.
export const consolePage = 'console';
