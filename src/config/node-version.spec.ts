import { nodeVersionProblem, SUPPORTED_NODE } from './node-version';

describe('nodeVersionProblem: the Node versions the service runs on', () => {
  it.each(['v20.19.0', 'v20.20.2', 'v22.12.0', 'v22.21.1', 'v23.0.0', 'v24.11.1', '26.1.0'])(
    'accepts %s',
    (version) => expect(nodeVersionProblem(version)).toBeNull(),
  );

  it.each(['v18.20.8', 'v20.0.0', 'v20.18.3', 'v21.7.3', 'v22.0.0', 'v22.11.0'])(
    'refuses %s, saying which versions work and why',
    (version) => {
      const problem = nodeVersionProblem(version);
      expect(problem).toContain(`Node.js ${version} is too old`);
      expect(problem).toContain(SUPPORTED_NODE);
      expect(problem).toContain('require() of ES modules');
    },
  );
});
