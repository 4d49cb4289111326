// Prints the closing line CI is judged by, "jest: N passed, N failed, N skipped", from the
// results jest wrote with --json --outputFile (.ci/run, and the engines job of
// .github/workflows/ci.yml).
const results = require(require('node:path').resolve(process.argv[2]));
const skipped = results.numPendingTests + results.numTodoTests;
console.log(`jest: ${results.numPassedTests} passed, ${results.numFailedTests} failed, ${skipped} skipped`);
if (results.numFailedTests === 0 && results.numFailedTestSuites > 0)
  console.log(`(${results.numFailedTestSuites} suites failed to run)`);
