// Unit tests sit beside the code (src/**/*.spec.ts); e2e, browser and contract suites live in test/.
// A few dependencies ship only as ES modules (content-disposition, used by @fastify/static for
// the /docs UI); Node 20 loads them with require(), jest needs them transpiled to CommonJS.
const esmOnly = ['content-disposition'];

module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/src', '<rootDir>/test'],
  testMatch: ['**/*.spec.ts', '**/*.e2e.ts'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }],
    '^.+\\.js$': ['ts-jest', { tsconfig: { allowJs: true, module: 'commonjs', target: 'ES2022', isolatedModules: true } }],
  },
  transformIgnorePatterns: [`/node_modules/(?!(${esmOnly.join('|')})/)`],
  moduleFileExtensions: ['ts', 'js', 'json'],
  testTimeout: 60000,
  maxWorkers: 2,
};
