import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'var/**', '**/*.js', '**/*.mjs'] },
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
    // The dashboard's browser code has its own TypeScript project (DOM, Preact JSX).
    files: ['dashboard/**/*.ts', 'dashboard/**/*.tsx', 'dashboard/**/*.mts'],
    languageOptions: {
      parserOptions: { project: './dashboard/tsconfig.json', tsconfigRootDir: import.meta.dirname },
    },
  },
);
