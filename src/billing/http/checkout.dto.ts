import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString } from 'class-validator';
import { RequiredString } from '../../shared/http/required-string.decorator';

/**
 * POST /v1/billing/checkout. That the package exists and that the URLs are absolute http(s)
 * URLs are the billing domain's rules (unknown_package, invalid_url).
 */
export class StartCheckoutDto {
  @ApiProperty({ example: 'pkg_starter', description: "The id of one of GET /v1/billing's packages" })
  @RequiredString('package_id', { notEmpty: true })
  package_id!: string;

  @ApiProperty({
    example: 'https://shop.example/paid?order=42',
    description: 'Absolute http(s) URL; the browser returns there with checkout_id added to the query',
  })
  @RequiredString('success_url', { notEmpty: true })
  success_url!: string;

  @ApiPropertyOptional({
    example: 'https://shop.example/cart',
    description: 'Absolute http(s) URL the shopper returns to after declining or cancelling',
  })
  @IsOptional()
  @IsString({ message: 'cancel_url must be a string' })
  cancel_url?: string | null;
}

export class CheckoutResponse {
  @ApiProperty({ example: 'chk_…' }) id!: string;
  @ApiProperty({ example: 'checkout' }) object!: string;
  @ApiProperty({ enum: ['pending', 'succeeded', 'failed', 'expired'] }) status!: string;
  @ApiProperty({ description: 'The hosted page to send the shopper to' }) checkout_url!: string;
  @ApiProperty() package_id!: string;
  @ApiProperty({ description: 'Price in minor units (pesewas for GHS)', example: 5000 }) amount!: number;
  @ApiProperty({ example: 'GHS' }) currency!: string;
  @ApiProperty({ description: "Credits added: the package's once succeeded, 0 before" }) sms!: number;
  @ApiProperty() success_url!: string;
  @ApiPropertyOptional({ nullable: true }) cancel_url!: string | null;
  @ApiProperty() expires_at!: string;
  @ApiProperty() created_at!: string;
}

export class PackageResponse {
  @ApiProperty({ example: 'package' }) object!: string;
  @ApiProperty({ example: 'pkg_starter' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ description: 'Price in minor units (pesewas for GHS)', example: 5000 }) amount!: number;
  @ApiProperty({ example: 'GHS' }) currency!: string;
  @ApiProperty({ example: 1000 }) sms!: number;
}

export class BillingResponse {
  @ApiProperty({ example: 'billing' }) object!: string;
  @ApiProperty({ enum: ['TEST', 'LIVE'] }) environment!: string;
  @ApiProperty({ description: 'Credits that can still be sent: balance minus open reservations' })
  sms_left!: number;
  @ApiProperty({ type: [PackageResponse] }) packages!: PackageResponse[];
}
