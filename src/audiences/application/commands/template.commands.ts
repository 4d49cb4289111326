import { Command } from '@nestjs/cqrs';
import type { ApiTemplate } from '../audience-views';

export class CreateTemplate extends Command<ApiTemplate> {
  constructor(
    readonly walletId: string,
    readonly name: unknown,
    readonly message: unknown,
  ) {
    super();
  }
}

export class DeleteTemplate extends Command<{ object: 'template'; id: string; deleted: true }> {
  constructor(
    readonly walletId: string,
    readonly templateId: string,
  ) {
    super();
  }
}
