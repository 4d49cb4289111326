import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsBoolean, IsObject, IsOptional, IsString, MaxLength } from 'class-validator';
import { PageLimit } from '../../shared/http/pagination';
import { RequiredString } from '../../shared/http/required-string.decorator';

/**
 * The audience endpoints' wire shapes (API.md, Audiences). What a field must mean (an E.164
 * number, a field's name, a template's placeholders, a group that exists) is the domain's rule
 * and answers its own code.
 */
const FIELDS_DESCRIPTION =
  'Up to 20 fields named [a-z][a-z0-9_]{0,31} (not name or phone_number), each a text of up to 200 characters';

export class CreateContactDto {
  @ApiProperty({
    example: '+233241234567',
    description: 'E.164; unique in the environment (409 contact_exists)',
  })
  @RequiredString('phone_number', { notEmpty: true })
  phone_number!: string;

  @ApiPropertyOptional({ example: 'Ama Mensah', nullable: true, description: 'Up to 100 characters' })
  @IsOptional()
  name?: string | null;

  @ApiPropertyOptional({ example: { first_name: 'Ama', class: 'JSS 2' }, description: FIELDS_DESCRIPTION })
  @IsOptional()
  @IsObject({ message: 'fields must be an object of names to text values' })
  fields?: Record<string, string>;

  @ApiPropertyOptional({ type: [String], example: ['grp_…'], description: 'Groups to put the contact in' })
  @IsOptional()
  @IsArray({ message: 'groups must be a list of group ids' })
  @IsString({ each: true, message: 'groups must be a list of group ids' })
  @ArrayMaxSize(100, { message: 'groups names at most 100 groups', context: { code: 'invalid_groups' } })
  groups?: string[];
}

export class UpdateContactDto {
  @ApiPropertyOptional({ example: '+233241234567' })
  @IsOptional()
  @IsString({ message: 'phone_number must be a string' })
  phone_number?: string;

  @ApiPropertyOptional({ example: 'Ama Mensah', nullable: true, description: 'null removes the name' })
  @IsOptional()
  name?: string | null;

  @ApiPropertyOptional({
    example: { class: 'JSS 3', old_field: null },
    description: `Merged into the contact's fields; a field set to null is removed. ${FIELDS_DESCRIPTION}`,
  })
  @IsOptional()
  @IsObject({ message: 'fields must be an object of names to text values (null removes one)' })
  fields?: Record<string, string | null>;

  @ApiPropertyOptional({
    type: [String],
    description: "The contact's groups, all of them (replaces the list)",
  })
  @IsOptional()
  @IsArray({ message: 'groups must be a list of group ids' })
  @IsString({ each: true, message: 'groups must be a list of group ids' })
  @ArrayMaxSize(100, { message: 'groups names at most 100 groups', context: { code: 'invalid_groups' } })
  groups?: string[];

  @ApiPropertyOptional({
    description:
      "Puts the number on (true) or takes it off (false) the environment's opt-out list: the list of /v1/opt_outs, the one source of truth",
  })
  @IsOptional()
  @IsBoolean({ message: 'opted_out must be true or false' })
  opted_out?: boolean;
}

export class ContactsQueryDto {
  @PageLimit(100, 20)
  limit?: number;

  @ApiPropertyOptional({ description: 'The last contact of the previous page (its id)' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  starting_after?: string;

  @ApiPropertyOptional({ description: 'Only the contacts of this group (grp_…)' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  group?: string;

  @ApiPropertyOptional({
    description:
      'The start of the name (case, accents and extra spaces aside), or of the number (+23324…, or 024… for Ghana). Results come in name or number order.',
  })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  search?: string;
}

export class CursorQueryDto {
  @PageLimit(100, 20)
  limit?: number;

  @ApiPropertyOptional({ description: 'The last item of the previous page (its id)' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  starting_after?: string;
}

export class ContactResponse {
  @ApiProperty({ example: 'contact' }) object!: string;
  @ApiProperty({ example: 'con_…' }) id!: string;
  @ApiProperty({ example: '+233241234567' }) phone_number!: string;
  @ApiProperty({ nullable: true, example: 'Ama Mensah' }) name!: string | null;
  @ApiProperty({ example: { first_name: 'Ama', class: 'JSS 2' } }) fields!: Record<string, string>;
  @ApiProperty({ type: [String], example: ['grp_…'] }) groups!: string[];
  @ApiProperty({ description: "On the environment's opt-out list (compliance's): no promotional messages" })
  opted_out!: boolean;
  @ApiProperty() created_at!: string;
  @ApiProperty() updated_at!: string;
}

export class ContactListResponse {
  @ApiProperty({ example: 'list' }) object!: string;
  @ApiProperty({ type: [ContactResponse] }) data!: ContactResponse[];
  @ApiProperty() has_more!: boolean;
}

export class DeletedResponse {
  @ApiProperty({ example: 'contact' }) object!: string;
  @ApiProperty() id!: string;
  @ApiProperty({ example: true }) deleted!: boolean;
}

export class CreateGroupDto {
  @ApiProperty({ example: 'JSS 2 parents', description: 'Up to 100 characters' })
  @RequiredString('name', { notEmpty: true })
  name!: string;
}

export class AddGroupContactsDto {
  @ApiProperty({ type: [String], example: ['con_…'], description: '1 to 1,000 contact ids' })
  @IsArray({ message: 'contacts must be a list of 1 to 1,000 contact ids' })
  @ArrayMaxSize(1000, {
    message: 'contacts must be a list of 1 to 1,000 contact ids',
    context: { code: 'invalid_contacts' },
  })
  @IsString({ each: true, message: 'contacts must be a list of contact ids' })
  contacts!: string[];
}

export class GroupResponse {
  @ApiProperty({ example: 'group' }) object!: string;
  @ApiProperty({ example: 'grp_…' }) id!: string;
  @ApiProperty({ example: 'JSS 2 parents' }) name!: string;
  @ApiProperty({ description: 'How many contacts are in it' }) contacts!: number;
  @ApiProperty() created_at!: string;
}

export class GroupListResponse {
  @ApiProperty({ example: 'list' }) object!: string;
  @ApiProperty({ type: [GroupResponse] }) data!: GroupResponse[];
  @ApiProperty() has_more!: boolean;
}

export class CreateTemplateDto {
  @ApiProperty({ example: 'Term reminder', description: 'Up to 100 characters' })
  @RequiredString('name', { notEmpty: true })
  name!: string;

  @ApiProperty({
    example: 'Dear {{first_name|Parent}}, {{class}} resumes on Monday.',
    description:
      'Up to 1,600 characters. Placeholders: {{name}}, {{phone_number}}, {{<field>}}, each with an optional fallback after a bar ({{first_name|Customer}}); any other brace is 400 invalid_template',
  })
  @RequiredString('message', { notEmpty: true })
  message!: string;
}

export class TemplateResponse {
  @ApiProperty({ example: 'template' }) object!: string;
  @ApiProperty({ example: 'tpl_…' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty() message!: string;
  @ApiProperty({ type: [String], example: ['first_name', 'class'] }) placeholders!: string[];
  @ApiProperty() created_at!: string;
}

export class TemplateListResponse {
  @ApiProperty({ example: 'list' }) object!: string;
  @ApiProperty({ type: [TemplateResponse] }) data!: TemplateResponse[];
  @ApiProperty() has_more!: boolean;
}

export class ContactImportQueryDto {
  @ApiPropertyOptional({ description: 'Every imported contact joins this group (grp_…)' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  group?: string;

  @ApiPropertyOptional({ example: 'GH', description: 'How local numbers (0241234567) are read' })
  @IsOptional()
  @IsString()
  @MaxLength(8)
  default_country?: string;
}

export class ImportErrorResponse {
  @ApiProperty({ example: 7, description: "The file's line" }) line!: number;
  @ApiProperty({ example: 'invalid_phone_number' }) code!: string;
  @ApiProperty() message!: string;
}

export class ContactImportResponse {
  @ApiProperty({ example: 'contact_import' }) object!: string;
  @ApiProperty({ example: 'imp_…' }) id!: string;
  @ApiProperty({ enum: ['processing', 'completed', 'failed'] }) status!: string;
  @ApiProperty({ nullable: true }) group!: string | null;
  @ApiProperty({ nullable: true, example: 'GH' }) default_country!: string | null;
  @ApiProperty() rows_total!: number;
  @ApiProperty() rows_done!: number;
  @ApiProperty({ description: 'Contacts created' }) created!: number;
  @ApiProperty({ description: 'Existing contacts changed (fields merged, group joined)' }) updated!: number;
  @ApiProperty() errors_count!: number;
  @ApiProperty({ type: [ImportErrorResponse], description: 'The first 100 errors, by line' })
  errors!: ImportErrorResponse[];
  @ApiPropertyOptional({ nullable: true, description: 'Why a failed import stopped' })
  failure!: { code: string; message: string } | null;
  @ApiProperty() created_at!: string;
  @ApiProperty({ nullable: true }) completed_at!: string | null;
}
