import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { PageLimit } from '../../shared/http/pagination';
import { AUDIT_ACTIONS } from '../domain/audit-event';

export class AuditEventsQueryDto {
  @PageLimit(100, 20)
  limit?: number;

  @ApiPropertyOptional({ description: 'The last audit event of the previous page (its aud_ id)' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  starting_after?: string;
}

export class AuditActorResponse {
  @ApiProperty({ enum: ['member', 'api_key', 'operator'] }) type!: string;
  @ApiProperty({ nullable: true, example: 'mem_…', description: 'mem_ or key_ id; null for the operator' })
  id!: string | null;
  @ApiPropertyOptional({ example: 'dev@shop.example', description: 'A member’s e-mail' }) email?: string;
}

export class AuditTargetResponse {
  @ApiProperty({
    example: 'api_key',
    description: 'account, member, invitation, api_key, webhook_endpoint, sender_id, wallet or checkout',
  })
  type!: string;
  @ApiProperty({ example: 'key_…' }) id!: string;
}

export class AuditEventResponse {
  @ApiProperty({ example: 'audit_event' }) object!: string;
  @ApiProperty({ example: 'aud_…' }) id!: string;
  @ApiProperty({ enum: AUDIT_ACTIONS }) action!: string;
  @ApiProperty({
    type: AuditActorResponse,
    nullable: true,
    description:
      'Null for what the service did by itself (an auto top-up) and for actions recorded before actors were',
  })
  actor!: AuditActorResponse | null;
  @ApiProperty({
    type: AuditTargetResponse,
    nullable: true,
    description: 'What was acted on, with what tells it apart (a name, an e-mail, a role); never a secret',
  })
  target!: AuditTargetResponse | null;
  @ApiProperty({
    nullable: true,
    example: '203.0.113.7',
    description: 'The client address, as TRUST_PROXY resolves it',
  })
  ip!: string | null;
  @ApiProperty({ example: '2026-11-24T10:00:00.000Z' }) created_at!: string;
}

export class AuditEventListResponse {
  @ApiProperty({ example: 'list' }) object!: string;
  @ApiProperty({ type: [AuditEventResponse] }) data!: AuditEventResponse[];
  @ApiProperty() has_more!: boolean;
}
