import { applyDecorators } from '@nestjs/common';
import { IsOptional, IsString, MaxLength } from 'class-validator';

/**
 * The Campaigns pages' forms, bounded like every console form (console-forms.dto.ts): what a field
 * must mean (a sender ID, a template, groups that exist, a time ahead) is the use case's refusal,
 * shown next to the form.
 */
const Field = (max: number) => applyDecorators(IsOptional(), IsString(), MaxLength(max));
const ID = 128;
const SHORT = 256;
const MESSAGE = 4096;

/** The new campaign's form, its preview's and its Send's (the preview carries the fields on). */
export class CampaignForm {
  @Field(ID) _once?: string;
  @Field(SHORT) name?: string;
  @Field(SHORT) sender_id?: string;
  @Field(SHORT) type?: string;
  /** The groups' checkboxes: one value, or several. */
  @IsOptional() groups?: string | string[];
  @Field(MESSAGE) message?: string;
  @Field(ID) template_id?: string;
  @Field(SHORT) send_at?: string;
}

export class CampaignActionForm {
  @Field(ID) _once?: string;
}
