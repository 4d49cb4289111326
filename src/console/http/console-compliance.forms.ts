import { IsOptional, IsString, MaxLength } from 'class-validator';

/**
 * The compliance page's forms, bounded like every console form (console-forms.dto.ts): what a
 * field must mean is the use case's refusal, shown next to the form.
 */
export class SenderIdRequestForm {
  @IsOptional() @IsString() @MaxLength(128) _once?: string;
  @IsOptional() @IsString() @MaxLength(256) sender_id?: string;
  @IsOptional() @IsString() @MaxLength(4096) sample_message?: string;
}

export class OptOutForm {
  @IsOptional() @IsString() @MaxLength(128) _once?: string;
  @IsOptional() @IsString() @MaxLength(256) phone_number?: string;
}

export class CompliancePageQuery {
  @IsOptional() @IsString() @MaxLength(128) inbound_after?: string;
  @IsOptional() @IsString() @MaxLength(128) opt_outs_after?: string;
}
