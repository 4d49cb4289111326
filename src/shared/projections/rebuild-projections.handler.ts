import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ProjectionsService } from './projections.service';
import { RebuildProjections, Rebuilt } from './rebuild-projections.command';

@CommandHandler(RebuildProjections)
export class RebuildProjectionsHandler implements ICommandHandler<RebuildProjections, Rebuilt> {
  constructor(private readonly projections: ProjectionsService) {}

  async execute({ onProgress }: RebuildProjections): Promise<Rebuilt> {
    const started = Date.now();
    await this.projections.rebuild(onProgress);
    return {
      rebuilt: this.projections
        .projections()
        .filter((p) => p.kind !== 'process-manager')
        .map((p) => p.name),
      ms: Date.now() - started,
    };
  }
}
