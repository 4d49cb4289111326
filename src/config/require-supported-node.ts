import { nodeVersionProblem } from './node-version';

// Imported first by the server and the CLI: a clear sentence on an old Node, before a module
// that needs a newer one fails to load with a stack trace.
const problem = nodeVersionProblem(process.version);
if (problem) {
  process.stderr.write(`${problem}\n`);
  process.exit(1);
}
