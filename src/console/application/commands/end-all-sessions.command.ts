import { Command } from '@nestjs/cqrs';

/** The operator ends every console session started until now (everyone signs in again). */
export class EndAllSessions extends Command<{ readonly endedBefore: string }> {}
