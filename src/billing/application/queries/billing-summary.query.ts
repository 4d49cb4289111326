import { Query } from '@nestjs/cqrs';
import type { Environment } from '../../../wallet/domain/wallet.events';

export interface PackageObject {
  readonly object: 'package';
  readonly id: string;
  readonly name: string;
  readonly amount: number;
  readonly currency: string;
  readonly sms: number;
}

export interface BillingSummaryObject {
  readonly object: 'billing';
  readonly environment: Environment;
  readonly sms_left: number;
  readonly packages: readonly PackageObject[];
}

/** The wallet's sms_left and the published packages (GET /v1/billing). */
export class BillingSummary extends Query<BillingSummaryObject> {
  constructor(
    readonly walletId: string,
    readonly environment: Environment,
  ) {
    super();
  }
}
