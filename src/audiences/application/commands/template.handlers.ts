import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../../shared/clock';
import { isIdOf, newId } from '../../../shared/ids';
import { unwrap } from '../../../shared/result';
import { templateStream } from '../../domain/audience.events';
import {
  createTemplate,
  deleteTemplate,
  templateDecider,
  templateMissing,
} from '../../domain/template.decider';
import { AudienceReader } from '../audience-reader';
import { AudienceStore } from '../audience-store';
import { ApiTemplate, templateDoc, toApiTemplate } from '../audience-views';
import { CreateTemplate, DeleteTemplate } from './template.commands';

@CommandHandler(CreateTemplate)
export class CreateTemplateHandler implements ICommandHandler<CreateTemplate, ApiTemplate> {
  constructor(
    private readonly store: AudienceStore,
    private readonly reader: AudienceReader,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ walletId, name, message }: CreateTemplate): Promise<ApiTemplate> {
    const templateId = newId('tpl');
    const handled = unwrap(
      await this.store.aggregates.handle(templateStream(templateId), templateDecider, (t) =>
        createTemplate(t, { templateId, walletId, name, message, now: this.clock.now() }),
      ),
    );
    await this.reader.waitFor(handled.position);
    return toApiTemplate(templateDoc(handled.state));
  }
}

@CommandHandler(DeleteTemplate)
export class DeleteTemplateHandler implements ICommandHandler<DeleteTemplate> {
  constructor(
    private readonly store: AudienceStore,
    private readonly reader: AudienceReader,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ walletId, templateId }: DeleteTemplate) {
    if (!isIdOf('tpl', templateId)) throw templateMissing('id');
    const handled = await this.store.aggregates.handle(templateStream(templateId), templateDecider, (t) =>
      deleteTemplate(t, { walletId, now: this.clock.now() }),
    );
    if (!handled.ok) throw templateMissing('id');
    await this.reader.waitFor(handled.value.position);
    return { object: 'template' as const, id: templateId, deleted: true as const };
  }
}
