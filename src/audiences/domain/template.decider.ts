import type { Decider } from '../../shared/decider';
import { DomainError, invalid, notFound } from '../../shared/domain-error';
import { err, ok, Result } from '../../shared/result';
import type { TemplateEvent } from './audience.events';
import { parseTemplate, placeholdersOf } from './template';

export const MAX_TEMPLATE_NAME = 100;

export interface Template {
  readonly templateId: string | null;
  readonly walletId: string | null;
  readonly name: string | null;
  readonly message: string | null;
  readonly placeholders: readonly string[];
  readonly createdAt: string | null;
  readonly deleted: boolean;
}

export const templateDecider: Decider<Template, TemplateEvent> = {
  initialState: () => ({
    templateId: null,
    walletId: null,
    name: null,
    message: null,
    placeholders: [],
    createdAt: null,
    deleted: false,
  }),
  evolve(state, event) {
    if (event.type === 'TemplateCreated') {
      const d = event.data;
      return {
        templateId: d.templateId,
        walletId: d.walletId,
        name: d.name,
        message: d.message,
        placeholders: d.placeholders,
        createdAt: d.createdAt,
        deleted: false,
      };
    }
    return { ...state, deleted: true };
  },
};

export const templateIsLiveIn = (state: Template, walletId: string): boolean =>
  state.templateId !== null && !state.deleted && state.walletId === walletId;

export const templateMissing = (param?: string) => notFound('template', param);

type Decision = Result<TemplateEvent[], DomainError>;

/** A new template: a name, and a message whose every brace is a valid placeholder (`400 invalid_template`). */
export function createTemplate(
  state: Template,
  cmd: { templateId: string; walletId: string; name: unknown; message: unknown; now: Date },
): Decision {
  if (state.templateId !== null) return ok([]);
  const name = typeof cmd.name === 'string' ? cmd.name.trim() : '';
  if (name === '') return err(invalid('invalid_name', 'name is required', 'name'));
  if ([...name].length > MAX_TEMPLATE_NAME)
    return err(invalid('invalid_name', `name must be at most ${MAX_TEMPLATE_NAME} characters`, 'name'));
  const parsed = parseTemplate(cmd.message);
  if (!parsed.ok) return parsed;
  return ok([
    {
      type: 'TemplateCreated',
      data: {
        templateId: cmd.templateId,
        walletId: cmd.walletId,
        name,
        message: parsed.value.text,
        placeholders: placeholdersOf(parsed.value),
        createdAt: cmd.now.toISOString(),
      },
    },
  ]);
}

export function deleteTemplate(state: Template, cmd: { walletId: string; now: Date }): Decision {
  if (!templateIsLiveIn(state, cmd.walletId)) return err(templateMissing());
  return ok([
    {
      type: 'TemplateDeleted',
      data: {
        templateId: state.templateId as string,
        walletId: cmd.walletId,
        deletedAt: cmd.now.toISOString(),
      },
    },
  ]);
}
