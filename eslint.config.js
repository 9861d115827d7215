// `npm run lint`: TypeScript, React's rules of hooks and accessibility (jsx-a11y).
// Formatting is Prettier's (`npm run format`), not ESLint's.
// Which layer may import which is dependency-cruiser's (.dependency-cruiser.cjs, docs/decisions/0011).
import js from '@eslint/js'
import jsxA11y from 'eslint-plugin-jsx-a11y'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'
import tseslint from 'typescript-eslint'

export default tseslint.config(
  { ignores: ['build/', '.react-router/', 'node_modules/', 'data/', 'test-results/', 'playwright-report/', 'tests/.tmp/', 'public/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      // Test helpers turn loader and action answers into plain objects.
      '@typescript-eslint/no-explicit-any': 'off',
      // Validation refuses control characters on purpose: the patterns name them.
      'no-control-regex': 'off',
    },
  },
  {
    // React code: components and hooks (server modules and tests have none).
    files: ['app/**/*.{ts,tsx}'],
    ignores: ['app/**/*.server.ts', 'app/**/*.test.ts'],
    plugins: { 'react-hooks': reactHooks, 'jsx-a11y': jsxA11y },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      ...jsxA11y.flatConfigs.recommended.rules,
      // A scrollable region (a wide table on a phone) must be reachable by keyboard.
      'jsx-a11y/no-noninteractive-tabindex': ['error', { roles: ['region'] }],
    },
  },
  {
    files: ['**/*.{js,mjs,cjs}'],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    // The service worker runs in the browser's worker scope, not in Node (decisions/0035).
    files: ['app/features/phone/sw.js'],
    languageOptions: { globals: { ...globals.serviceworker } },
  },
)
