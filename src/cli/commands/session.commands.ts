import { CommandBus } from '@nestjs/cqrs';
import { EndAllSessions } from '../../console/application/commands/end-all-sessions.command';
import type { CliCommand } from './cli-command';

export const sessionsEndAll: CliCommand = {
  name: 'sessions:end-all',
  usage: 'sessions:end-all',
  options: [],
  async run(app) {
    const { endedBefore } = await app.get(CommandBus).execute(new EndAllSessions());
    return { output: { ended_before: endedBefore } };
  },
};
