import { IsOptional, IsString, MaxLength } from 'class-validator';

/**
 * The Verifications page's forms (the try-out under TEST), bounded like every console form
 * (console-forms.dto.ts): what a field must mean is the use case's refusal, shown by the form.
 */
export class VerificationTryForm {
  @IsOptional() @IsString() @MaxLength(128) _once?: string;
  @IsOptional() @IsString() @MaxLength(256) to?: string;
  @IsOptional() @IsString() @MaxLength(256) sender_id?: string;
}

export class VerificationCheckForm {
  @IsOptional() @IsString() @MaxLength(128) _once?: string;
  @IsOptional() @IsString() @MaxLength(64) code?: string;
}
