import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', '.data/**', 'bin/**', 'scripts/**', '*.js', '*.mjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    // The console's small browser scripts (served as they are, no bundler).
    files: ['src/console/assets/**/*.js'],
    languageOptions: {
      globals: {
        window: 'readonly',
        document: 'readonly',
        fetch: 'readonly',
        EventSource: 'readonly',
        CustomEvent: 'readonly',
        uPlot: 'readonly',
      },
    },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'warn',
    },
  },
  {
    // Tests assert mechanisms, not speed (issue 26): no upper bound on wall-clock time (time comes
    // from an injected clock or fake timers), and no helper's own assertions swallowed. A bracket
    // between two observed instants (t >= sentFrom, t <= receivedBy) is not a bound on speed.
    files: ['test/**/*.ts', 'src/**/*.spec.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "CallExpression[callee.property.name=/^toBeLessThan(OrEqual)?$/]:has(MemberExpression[object.name='Date'][property.name='now'], MemberExpression[object.name='Date'][property.name='parse'], MemberExpression[object.name='performance'][property.name='now'], MemberExpression[property.name='hrtime'], MemberExpression[property.name='getTime'])",
          message:
            'An upper bound on wall-clock time fails on a loaded machine: assert the mechanism, or move time with an injected clock or fake timers.',
        },
        {
          selector:
            "CallExpression[callee.property.name=/^toBeLessThan(OrEqual)?$/]:has(BinaryExpression[operator='-'][left.name=/At$/], BinaryExpression[operator='-'][left.property.name=/^at$|At$/])",
          message:
            'A difference of two instants under a bound is a wall-clock bound: assert the mechanism, or use an injected clock or fake timers.',
        },
        {
          selector:
            "CallExpression[callee.property.name='catch'] > ArrowFunctionExpression.arguments[params.length=0][body.type='Identifier'][body.name='undefined']",
          message:
            ".catch(() => undefined) discards failures, a helper's own assertions among them: let it throw, or assert the rejection.",
        },
      ],
    },
  },
);
