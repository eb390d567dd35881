import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';

export default tseslint.config(
  // clients/typescript is its own package, type-checked and linted with its own settings.
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'var/**', '**/*.js', '**/*.mjs', 'clients/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  prettier,
  {
    languageOptions: {
      parserOptions: { project: './tsconfig.json', tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/require-await': 'error',
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      curly: ['error', 'all'],
      'no-restricted-imports': ['error', { patterns: ['../../../*'] }],
    },
  },
  {
    // Functions stay under 60 lines in src/: a rule, a write or a use-case's workflow reads on one
    // screen. A longer one says why where it starts (eslint-disable-next-line ... -- reason).
    // Specs are exempt (a describe block holds its tests).
    files: ['src/**/*.ts'],
    ignores: ['src/**/*.spec.ts'],
    rules: { 'max-lines-per-function': ['error', { max: 60 }] },
  },
  {
    // The dashboard's browser code has its own TypeScript project (DOM, Preact JSX).
    files: ['dashboard/**/*.ts', 'dashboard/**/*.tsx', 'dashboard/**/*.mts'],
    languageOptions: {
      parserOptions: { project: './dashboard/tsconfig.json', tsconfigRootDir: import.meta.dirname },
    },
  },
);
