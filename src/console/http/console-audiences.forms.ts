import { applyDecorators } from '@nestjs/common';
import { IsOptional, IsString, MaxLength } from 'class-validator';

/**
 * The Contacts, Groups and Templates pages' forms and queries, bounded like every console form
 * (console-forms.dto.ts): what a field must mean is the use case's refusal, shown next to the form.
 */
const Field = (max: number) => applyDecorators(IsOptional(), IsString(), MaxLength(max));
const ID = 128;
const SHORT = 256;
/** 20 fields of up to 200 characters each, with their names. */
const FIELDS = 8 * 1024;
const MESSAGE = 4096;

export class ContactsPageQuery {
  @Field(SHORT) search?: string;
  @Field(ID) group?: string;
  @Field(ID) after?: string;
}

export class ContactForm {
  @Field(ID) _once?: string;
  @Field(SHORT) phone_number?: string;
  @Field(SHORT) name?: string;
  @Field(FIELDS) fields?: string;
  @Field(ID) group?: string;
  /** The edit form's checkboxes: one value, or several. */
  @IsOptional() groups?: string | string[];
  @Field(8) opted_out?: string;
}

export class ContactImportForm {
  @Field(ID) _once?: string;
  @Field(ID) group?: string;
  @Field(8) default_country?: string;
  /** The file's text (multipart), bounded by the route's upload limit, not here. */
  @IsOptional() @IsString() file?: string;
  @IsOptional() @IsString() _upload_problem?: string;
}

export class GroupForm {
  @Field(ID) _once?: string;
  @Field(SHORT) name?: string;
}

export class TemplateForm {
  @Field(ID) _once?: string;
  @Field(SHORT) name?: string;
  @Field(MESSAGE) message?: string;
  @Field(ID) contact?: string;
}

export class OnceForm {
  @Field(ID) _once?: string;
}

export class TemplatesPageQuery {
  @Field(ID) contact?: string;
  @Field(SHORT) contact_search?: string;
}
